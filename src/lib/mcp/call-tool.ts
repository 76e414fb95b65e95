import {errorMessage, errorObject} from '../output/outcome.js'
import {printable} from '../output/printable.js'
import {executeVerb} from '../verbs/execute-verb.js'
import {inputFromArguments} from '../verbs/input.js'
import type {Verb, VerbContext} from '../verbs/types.js'

export interface ToolResult {
  [field: string]: unknown
  content: Array<{type: 'text'; text: string}>
  isError?: boolean
}

export function textResult(text: string, isError = false): ToolResult {
  return {content: [{type: 'text', text: printable(text)}], ...(isError ? {isError: true} : {})}
}

/** The human message (parameters named as MCP names them), then the same error object the
 *  CLI's --json prints, so an agent can branch on `code` and the app's `envelope.type`. */
export function errorResult(error: unknown): ToolResult {
  return textResult(`${errorMessage(error, 'mcp')}\n${JSON.stringify(errorObject(error, 'mcp'))}`, true)
}

/** Runs one catalogue verb for an MCP call: the app's JSON as text, or an error result. */
export async function callVerb(verb: Verb, args: Record<string, unknown> | undefined, context: VerbContext): Promise<ToolResult> {
  try {
    const input = inputFromArguments(verb, args)
    verb.validate?.(input)
    const result = await executeVerb(verb, context, input)
    return textResult(verb.mcpText?.(result, input) ?? JSON.stringify(result), verb.mcpIsError?.(result) ?? false)
  } catch (error) {
    return errorResult(error)
  }
}
