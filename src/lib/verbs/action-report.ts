import type {Report} from './types.js'

/** A side-effect verb's one `✓` line. */
export function done(line: string, stderr: string[] = []): Report {
  return {stdout: `✓ ${line}`, ...(stderr.length > 0 ? {stderr} : {})}
}

/** Side-effect verbs print the JSON envelope instead of their line when the caller asked for a
 *  snapshot: that is where it lives. */
export function snapshotAsked(input: {includeSnapshot?: boolean; snapshot?: string}): boolean {
  return input.includeSnapshot === true || input.snapshot === 'full' || input.snapshot === 'diff'
}
