import {TapirError} from '../errors.js'
import {EXIT, type ExitCode} from '../output/exit-codes.js'
import {hintsInMcpWords, inMcpWords} from '../output/mcp-words.js'
import {errorObject, mcpErrorLine} from '../output/outcome.js'
import {printable} from '../output/printable.js'
import {executeVerb} from '../verbs/execute-verb.js'
import {inputFromArguments} from '../verbs/input.js'
import type {Input, Result, Verb, VerbContext} from '../verbs/types.js'
import {imageContent, type ToolContent} from './image-content.js'

export interface ToolResult {
  [field: string]: unknown
  content: ToolContent[]
  isError?: boolean
}

export function textResult(text: string, isError = false): ToolResult {
  return {content: [{type: 'text', text: printable(text)}], ...(isError ? {isError: true} : {})}
}

/** Blocks of text (made printable) and images. */
export function contentResult(content: ToolContent[], isError = false): ToolResult {
  return {
    content: content.map((part) => (part.type === 'text' ? {type: 'text', text: printable(part.text)} : part)),
    ...(isError ? {isError: true} : {}),
  }
}

/** The human message (parameters named as MCP names them), then the same error object the
 *  CLI's --json prints, so an agent can branch on `code` and the app's `envelope.type`. */
export function errorResult(error: unknown, exitCode?: ExitCode): ToolResult {
  return textResult(`${mcpErrorLine(error)}\n${JSON.stringify(errorObject(error, 'mcp', exitCode))}`, true)
}

/** A result that is a failure the verb checks (an expect that did not hold): the error object
 *  every failed call ends with, its message the line the CLI prints for it (exit 1 there too). */
function softErrorObject(verb: Verb, result: Result, input: Input): {error: {message: string; exitCode: ExitCode}} {
  const line = verb.report(result, input).stderr?.at(-1)?.replace(/^✗ /, '')
  return {error: {message: inMcpWords(line ?? `${verb.tool ?? verb.name} failed.`), exitCode: EXIT.failed}}
}

/** Waits the app takes longer than this get a progress notification every PROGRESS_EVERY_MS. */
export const LONG_WAIT_MS = 2000
const PROGRESS_EVERY_MS = 1000

/** Runs one catalogue verb for an MCP call: the app's JSON as text, or an error result. While a
 *  wait longer than LONG_WAIT_MS runs, `context.progress` hears how long it has waited. */
export function callVerb(verb: Verb, args: Record<string, unknown> | undefined, context: VerbContext): Promise<ToolResult> {
  return runVerb(
    verb,
    () => inputFromArguments(verb, args),
    context,
    (answer, input) => {
      const result = hintsInMcpWords(answer)
      const isError = verb.mcpIsError?.(result) ?? false
      if (verb.mcpImage) return contentResult(imageContent(result, verb.mcpImage), isError)
      const text = verb.mcpText?.(result, input) ?? JSON.stringify(result)
      return textResult(isError ? `${text}\n${JSON.stringify(softErrorObject(verb, result, input))}` : text, isError)
    },
  )
}

/** Runs a verb on the input `inputOf` builds (a UsageError there is an error result) and
 *  answers what `answer` makes of its result. */
export async function runVerb(
  verb: Verb,
  inputOf: () => Input,
  context: VerbContext,
  answer: (result: Result, input: Input) => ToolResult,
  tool = verb.tool,
): Promise<ToolResult> {
  let input: Input | undefined
  let ticker: NodeJS.Timeout | undefined
  try {
    input = inputOf()
    verb.validate?.(input)
    const waitMs = verb.waitsMs?.(input) ?? 0
    if (context.progress && waitMs > LONG_WAIT_MS) {
      const started = Date.now()
      const progress = context.progress.bind(context)
      ticker = setInterval(
        () => progress(`${tool}: ${Math.round((Date.now() - started) / 1000)} s of up to ${Math.round(waitMs / 1000)} s`),
        PROGRESS_EVERY_MS,
      )
    }
    return answer(await executeVerb(verb, context, input), input)
  } catch (error) {
    // A failure the verb reads as its own soft failure exits 1 on the CLI: its object says so here too.
    const soft = error instanceof TapirError && input !== undefined && verb.softFailure?.(error, input) !== undefined
    return errorResult(error, soft ? EXIT.failed : undefined)
  } finally {
    clearInterval(ticker)
  }
}
