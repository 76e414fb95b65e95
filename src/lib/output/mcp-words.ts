import {isJsonObject} from '../shape.js'
import {WORDS} from '../verbs/words.js'

/**
 * The app's own words as MCP says them. The in-app package words its diagnostics and hints for
 * the reference's CLI ("refine with --key ... or scope with --within", "Run tapir:exceptions"):
 * over MCP a flag is the parameter of that name and a command is its tool.
 */
export function inMcpWords(text: string): string {
  return text
    .replace(/\bRun tapir:(\w+)/g, (_all, verb: string) => `Call ${WORDS.mcp.call(verb)}`)
    .replace(/\btapir:(\w+)/g, (_all, verb: string) => WORDS.mcp.call(verb))
    .replace(/(^|[\s(,'"])--([a-zA-Z][\w-]*)/g, '$1$2')
}

/** A result with the hints the app put in it (find's `diagnostic`, `renderErrors.hint`) in MCP's words. */
export function hintsInMcpWords<R extends Record<string, unknown>>(result: R): R {
  const out: Record<string, unknown> = {...result}
  for (const key of ['diagnostic', 'hint']) if (typeof out[key] === 'string') out[key] = inMcpWords(out[key])
  const errors = out.renderErrors
  if (isJsonObject(errors) && typeof errors.hint === 'string') out.renderErrors = {...errors, hint: inMcpWords(errors.hint)}
  return out as R
}
