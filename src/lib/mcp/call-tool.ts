import {errorMessage} from '../output/outcome.js'
import {inputFromArguments} from '../verbs/input.js'
import type {Verb, VerbContext} from '../verbs/types.js'

export interface ToolResult {
  [field: string]: unknown
  content: Array<{type: 'text'; text: string}>
  isError?: boolean
}

export function textResult(text: string, isError = false): ToolResult {
  return {content: [{type: 'text', text}], ...(isError ? {isError: true} : {})}
}

/** Same words as the CLI's `✗` line, without the mark. */
export function errorResult(error: unknown): ToolResult {
  return textResult(errorMessage(error), true)
}

/** Runs one catalogue verb for an MCP call: the app's JSON as text, or an error result. */
export async function callVerb(verb: Verb, args: Record<string, unknown> | undefined, context: VerbContext): Promise<ToolResult> {
  try {
    const input = inputFromArguments(verb, args)
    verb.validate?.(input)
    const result = await verb.execute(context, input)
    return textResult(verb.mcpText?.(result, input) ?? JSON.stringify(result), verb.mcpIsError?.(result) ?? false)
  } catch (error) {
    return errorResult(error)
  }
}
