import {TapirError} from '../errors.js'
import {EXIT, type ExitCode} from '../output/exit-codes.js'
import {errorMessage, errorObject} from '../output/outcome.js'
import {printable} from '../output/printable.js'
import {executeVerb} from '../verbs/execute-verb.js'
import {inputFromArguments} from '../verbs/input.js'
import type {Input, Verb, VerbContext} from '../verbs/types.js'

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
export function errorResult(error: unknown, exitCode?: ExitCode): ToolResult {
  return textResult(`${errorMessage(error, 'mcp')}\n${JSON.stringify(errorObject(error, 'mcp', exitCode))}`, true)
}

/** Runs one catalogue verb for an MCP call: the app's JSON as text, or an error result. */
export async function callVerb(verb: Verb, args: Record<string, unknown> | undefined, context: VerbContext): Promise<ToolResult> {
  let input: Input | undefined
  try {
    input = inputFromArguments(verb, args)
    verb.validate?.(input)
    const result = await executeVerb(verb, context, input)
    return textResult(verb.mcpText?.(result, input) ?? JSON.stringify(result), verb.mcpIsError?.(result) ?? false)
  } catch (error) {
    // A failure the verb reads as its own soft failure exits 1 on the CLI: its object says so here too.
    const soft = error instanceof TapirError && input !== undefined && verb.softFailure?.(error, input) !== undefined
    return errorResult(error, soft ? EXIT.failed : undefined)
  }
}
