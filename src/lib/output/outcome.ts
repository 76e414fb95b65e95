import {TapirError, type Surface, type Words} from '../errors.js'
import {isJsonObject} from '../shape.js'
import {ExplainedError} from '../verbs/explained-error.js'
import type {Input, Report, Result, Verb} from '../verbs/types.js'
import {WORDS} from '../verbs/words.js'
import type {ExitCode} from './exit-codes.js'
import {EXIT, exitCodeFor} from './exit-codes.js'
import {inMcpWords} from './mcp-words.js'
import {redactToken} from './redact-token.js'
import {cutMessage} from './sane-length.js'

/** What one command invocation prints and exits with: built here, printed by the caller. */
export interface Outcome {
  stdout: string
  stderr: string[]
  exitCode: ExitCode
  /** A failure's error object (as --json prints it), kept for tapir:run and MCP to report. */
  error?: ErrorObject
  /** A verb's result as it came: a strict run reads its soft failures (src/lib/run/strict.ts), a
   *  `find --as` step its handle (src/lib/run/bindings.ts). */
  result?: Result
}

export type ErrorObject = {error: Record<string, unknown>}

const FRAMES_OFF =
  'The app is not producing frames (lifecycle: %s). The semantics tree is not being rebuilt and gestures cannot take effect, so this result may be stale. A backgrounded browser tab or a hidden window is the usual cause: bring it to front and retry.'

/** The stderr lines a result earns whatever the format: frames not produced, render errors
 *  (both checked as the app's answer entered). */
export function banners({warnings, renderErrors}: Result): string[] {
  const lines: string[] = []
  if (warnings) lines.push(`⚠ ${FRAMES_OFF.replace('%s', warnings.lifecycleState ?? 'unknown')}`)
  if (renderErrors) {
    const recent = renderErrors.recent ?? []
    lines.push(`⚠ ${renderErrors.count ?? recent.length} render error(s) captured on this screen (run tapir:exceptions for full detail):`)
    for (const entry of recent) lines.push(`  - ${entry.type ?? 'error'}: ${entry.message ?? ''}`)
  }
  return lines
}

export function resultOutcome(verb: Verb, result: Result, input: Input, json: boolean): Outcome {
  if (json || verb.prefersJson?.(input)) {
    return {
      stdout: JSON.stringify(result),
      stderr: banners(result),
      exitCode: verb.failed?.(result, input, true) ? EXIT.failed : EXIT.ok,
      result,
    }
  }
  const report = verb.report(result, input)
  return {
    stdout: report.stdout ?? '',
    stderr: [...banners(result), ...(report.stderr ?? [])],
    exitCode: verb.failed?.(result, input, false) ? EXIT.failed : EXIT.ok,
    result,
  }
}

/** A command's `✓` lines, or its result as JSON with --json. */
export function linesOutcome(lines: string[], result: Record<string, unknown>, json: boolean): Outcome {
  return {stdout: json ? JSON.stringify(result) : lines.join('\n'), stderr: [], exitCode: EXIT.ok}
}

/** Everything an outcome printed, stdout first: what tapir:run and MCP report of a step. */
export function outcomeText(outcome: Outcome): string {
  return [outcome.stdout, ...outcome.stderr].filter((part) => part !== '').join('\n')
}

/** The one line a failure reads as on a surface (parameters named its way); tokens never shown,
 *  and text the app or the browser put in it cut to a sane length. */
export function errorMessage(error: unknown, surface: Surface = 'cli'): string {
  return cutMessage(
    redactToken(
      error instanceof TapirError
        ? error.messageFor(WORDS[surface])
        : `Unexpected error: ${error instanceof Error ? error.message : String(error)}`,
    ),
  )
}

/** The error object the CLI's --json prints and an MCP error result carries after its message:
 *  `{error: {message, exitCode, code?, envelope?}}`. `exitCode` says whose failure it was
 *  (1: the call or a local failure, 3: the app's answer or the connection) on both surfaces. */
export function errorObject(error: unknown, surface: Surface, exitCode: ExitCode = exitCodeFor(error)): ErrorObject {
  const details = error instanceof TapirError ? error.details : undefined
  const message = errorMessage(error, surface)
  const worded = surface === 'mcp' && error instanceof TapirError && error.kind === 'app' ? inMcpWords(message) : message
  return {error: {message: worded, exitCode, ...details}}
}

/** An app error the verb reads as a soft failure: its own lines, exit 1 (the error JSON with --json). */
export function softFailureOutcome(error: TapirError, report: Report, json: boolean): Outcome {
  const exitCode = EXIT.failed
  const object = errorObject(error, 'cli', exitCode)
  if (json) return {stdout: JSON.stringify(object), stderr: report.stderr ?? [], exitCode, error: object}
  return {stdout: report.stdout ?? '', stderr: report.stderr ?? [], exitCode, error: object}
}

/** Any failure as one `✗` line (and the JSON error object with --json); tokens never shown.
 *  The error object is worded for `surface` (an MCP session tool runs a CLI command). */
export function failureOutcome(error: unknown, json: boolean, surface: Surface = 'cli'): Outcome {
  const exitCode = exitCodeFor(error)
  const object = errorObject(error, surface)
  return {stdout: json ? JSON.stringify(object) : '', stderr: errorLines(error, surface), exitCode, error: object}
}

/** The `✗` line, and the lines a message of tapir's own lists under it (every problem of a
 *  scenario file, a Diagnostics line). Text from the app stays on the one line, so it can never
 *  pass for a line of tapir's (terminal-safe printing shows its newlines as \\n). */
function errorLines(error: unknown, surface: Surface = 'cli'): string[] {
  const message = errorMessage(error, surface)
  const [first, ...more] = error instanceof TapirError && error.multiline ? message.split('\n') : [message]
  return [`✗ ${first}${error instanceof TapirError ? nextStep(error, first, WORDS[surface]) : ''}`, ...more]
}

/** The message an MCP error result opens with: the message, the app's words in MCP's (it words
 *  its own for the CLI), and what to try next, worded for MCP. */
export function mcpErrorLine(error: unknown): string {
  const message = errorMessage(error, 'mcp')
  const own = error instanceof TapirError && error.kind === 'app' ? inMcpWords(message) : message
  return `${own}${error instanceof TapirError ? nextStep(error, own, WORDS.mcp) : ''}`
}

const MAX_SUGGESTIONS = 5
const MAX_SUGGESTION_CHARS = 80

/** What the app's error envelope says to try next, as the end of the `✗` line: its suggestions
 *  (candidate refs, labels, key names), and for a stale ref the way to a fresh one. */
function nextStep(error: TapirError, message: string, words: Words): string {
  const envelope = error.details?.envelope
  if (!isJsonObject(envelope)) return ''
  const suggestions = Array.isArray(envelope.suggestions)
    ? envelope.suggestions
        .filter((entry): entry is string => typeof entry === 'string' && entry !== '')
        .slice(0, MAX_SUGGESTIONS)
        .map((entry) => (entry.length > MAX_SUGGESTION_CHARS ? `${entry.slice(0, MAX_SUGGESTION_CHARS)}…` : entry))
    : []
  const tried = suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : ''
  const fresh =
    envelope.type === 'stale' && !/snap/i.test(message)
      ? ` ${words.run} ${words.call('snap')} (or ${words.call('find')} again) for a fresh ref.`
      : ''
  const hints = error instanceof ExplainedError ? `${error.fix(words, tried !== '')}${tried}` : `${tried}${fresh}`
  return hints === '' || /[.!?]$/.test(message) ? hints : `.${hints}`
}
