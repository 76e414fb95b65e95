import {lstatSync} from 'node:fs'
import {join} from 'node:path'
import {TapirError, messageOf} from '../errors.js'
import {isJsonObject} from '../shape.js'
import {executeVerb} from '../verbs/execute-verb.js'
import {consoleLogs, exceptions, snap} from '../verbs/read-verbs.js'
import {screenshot} from '../verbs/screenshot-verb.js'
import type {VerbContext} from '../verbs/types.js'
import {ensureFolder} from '../write-atomic.js'
import type {Evidence} from './report.js'

/** The folder of a report's screenshots, inside its output folder. */
export const EVIDENCE_FOLDER = 'evidence'

/**
 * What the app shows at a failure: a screenshot (the screenshot verb's: through Chrome on web,
 * from the app otherwise), the snapshot, and the console and exceptions since the attempt began.
 * Each part that cannot be read is named in `missing`; none of them fails the report.
 */
export async function captureEvidence(
  context: VerbContext,
  outputDir: string,
  name: string,
  since: Date,
  clean: (text: string) => string,
): Promise<Evidence> {
  const evidence: Evidence = {}
  const missing: string[] = []
  const folder = join(outputDir, EVIDENCE_FOLDER)
  const file = `${name}.png`
  try {
    ensureFolder(folder)
    // Written only into a folder of tapir's own: through a link, it could replace a user's image.
    if (lstatSync(folder).isSymbolicLink())
      throw new TapirError(
        `${folder} is a symbolic link; tapir writes screenshots only into a folder of its own. Remove the link.`,
        'local',
      )
    await executeVerb(screenshot, context, {output: join(folder, file), format: 'png'})
    evidence.screenshot = `${EVIDENCE_FOLDER}/${file}`
  } catch (error) {
    missing.push(`screenshot: ${messageOf(error)}`)
  }
  try {
    const result = await executeVerb(snap, context, {})
    if (typeof result.snapshot === 'string') evidence.snapshot = result.snapshot
  } catch (error) {
    missing.push(`snapshot: ${messageOf(error)}`)
  }
  try {
    const result = await executeVerb(consoleLogs, context, {limit: 100})
    const logs = Array.isArray(result.logs) ? result.logs : []
    evidence.console = logs.filter((entry) => !isJsonObject(entry) || after(entry.time ?? entry.timestamp, since))
  } catch (error) {
    missing.push(`console: ${messageOf(error)}`)
  }
  try {
    const result = await executeVerb(exceptions, context, {since: since.toISOString(), limit: 50})
    evidence.exceptions = Array.isArray(result.exceptions) ? result.exceptions : []
  } catch (error) {
    missing.push(`exceptions: ${messageOf(error)}`)
  }
  if (missing.length > 0) evidence.missing = missing
  return cleaned(evidence, clean)
}

/** Every text of the evidence through `clean` (secrets masked, the machine's folders taken out). */
function cleaned(evidence: Evidence, clean: (text: string) => string): Evidence {
  const deep = (value: unknown): unknown =>
    typeof value === 'string'
      ? clean(value)
      : Array.isArray(value)
        ? value.map(deep)
        : isJsonObject(value)
          ? Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, deep(entry)]))
          : value
  return {
    ...(evidence.screenshot === undefined ? {} : {screenshot: evidence.screenshot}),
    ...(evidence.snapshot === undefined ? {} : {snapshot: clean(evidence.snapshot)}),
    ...(evidence.console === undefined ? {} : {console: evidence.console.map(deep)}),
    ...(evidence.exceptions === undefined ? {} : {exceptions: evidence.exceptions.map(deep)}),
    ...(evidence.missing === undefined ? {} : {missing: evidence.missing.map(clean)}),
  }
}

/** An entry with no readable time is kept: the app may not stamp its logs. */
function after(time: unknown, since: Date): boolean {
  if (typeof time !== 'string') return true
  const at = Date.parse(time)
  return Number.isNaN(at) || at >= since.getTime()
}
