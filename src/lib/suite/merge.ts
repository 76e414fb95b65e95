import {join, relative, resolve, sep} from 'node:path'
import {TapirError, messageOf} from '../errors.js'
import {nestsDeeperThan} from '../json-depth.js'
import {readBoundedText} from '../read-bounded.js'
import {anything, boolean, integer, list, literal, number, object, optional, readAs, refined, string} from '../shape.js'
import {staysInside} from './read-evidence.js'
import type {Attempt, SuiteReport, TestRecord} from './report.js'
import {REPORT_FILES} from './write-reports.js'

const MAX_SHARD_REPORTS = 1000
/** A report holds the app's console entries, which may nest as deep as an answer may (1000 levels,
 *  vm/client.ts); deeper is no report tapir wrote, and is refused before anything recursive reads it. */
const MAX_REPORT_DEPTH = 1100

const attemptShape = object({
  passed: boolean,
  durationMs: number,
  startedAt: string,
  steps: list(object({step: string, line: optional(integer), ok: boolean, exitCode: integer, durationMs: number, output: string})),
  failure: optional(
    object({message: string, file: string, line: optional(integer), step: optional(string), stepNumber: optional(integer)}),
  ),
  evidence: optional(
    object({
      screenshot: optional(string),
      snapshot: optional(string),
      console: optional(list(anything)),
      exceptions: optional(list(anything)),
      missing: optional(list(string)),
    }),
  ),
  trace: optional(string),
})

const reportShape = object({
  tool: literal('tapir test'),
  version: literal(1),
  startedAt: string,
  durationMs: number,
  fresh: string,
  tests: list(
    object({
      file: string,
      status: literal('passed', 'failed', 'flaky'),
      durationMs: number,
      // Every test tapir runs has at least one attempt; the reports read the last.
      attempts: refined(list(attemptShape), (value) => (Array.isArray(value) && value.length === 0 ? 'it holds no attempt' : undefined)),
    }),
  ),
})

/** Reads the report.json of each shard folder. */
export function readShardReports(folders: readonly string[], cwd: string): Array<{folder: string; report: SuiteReport}> {
  if (folders.length === 0) throw new TapirError('Name the report folders to merge: tapir merge-reports shard-1 shard-2 …', 'usage')
  if (folders.length > MAX_SHARD_REPORTS) throw new TapirError(`At most ${MAX_SHARD_REPORTS} report folders can be merged.`, 'usage')
  return folders.map((folder) => {
    const path = join(resolve(cwd, folder), REPORT_FILES.json)
    let json: unknown
    try {
      json = JSON.parse(readBoundedText(path))
    } catch (error) {
      throw new TapirError(
        `Cannot read ${join(folder, REPORT_FILES.json)}: ${messageOf(error)}. Each folder must hold a tapir test --reporter=json report.`,
        'local',
      )
    }
    if (nestsDeeperThan(json, MAX_REPORT_DEPTH))
      throw new TapirError(
        `${join(folder, REPORT_FILES.json)} is not a tapir test report: it nests deeper than ${MAX_REPORT_DEPTH} levels.`,
        'local',
      )
    const read = readAs(reportShape, json, 'report')
    if ('problem' in read) throw new TapirError(`${join(folder, REPORT_FILES.json)} is not a tapir test report: ${read.problem}.`, 'local')
    return {folder: resolve(cwd, folder), report: read.value as SuiteReport}
  })
}

/**
 * One report of the shards' reports: every test once (sorted by file; a file two shards ran
 * is a mistake and refused), the earliest start, the longest shard's time (shards run side by
 * side), and each screenshot and trace named relative to the merged report's own folder
 * (merge-traces.ts then copies the traces in).
 */
export function mergeReports(shards: ReadonlyArray<{folder: string; report: SuiteReport}>, outputDir: string): SuiteReport {
  const tests: TestRecord[] = []
  const seen = new Map<string, string>()
  for (const {folder, report} of shards) {
    for (const test of report.tests) {
      const earlier = seen.get(test.file)
      if (earlier !== undefined)
        throw new TapirError(
          `${test.file} is in two of the reports (${earlier} and ${folder}): merge the reports of one run's shards.`,
          'local',
        )
      seen.set(test.file, folder)
      tests.push({...test, attempts: test.attempts.map((attempt) => moved(attempt, folder, outputDir))})
    }
  }
  tests.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
  const starts = shards.map(({report}) => report.startedAt).sort()
  const frees = [...new Set(shards.map(({report}) => report.fresh))]
  return {
    tool: 'tapir test',
    version: 1,
    startedAt: starts[0] ?? new Date().toISOString(),
    durationMs: Math.max(0, ...shards.map(({report}) => report.durationMs)),
    fresh: frees.join(', '),
    tests,
  }
}

function moved(attempt: Attempt, from: string, to: string): Attempt {
  const screenshot = attempt.evidence?.screenshot
  const inside = (path: string, what: string): string => {
    if (!staysInside(path))
      throw new TapirError(`A report in ${from} names a ${what} outside its folder (${path}); it is not a report tapir wrote.`, 'local')
    return relative(to, join(from, path)).split(sep).join('/')
  }
  return {
    ...attempt,
    ...(attempt.evidence && screenshot !== undefined
      ? {evidence: {...attempt.evidence, screenshot: inside(screenshot, 'screenshot')}}
      : {}),
    ...(attempt.trace === undefined ? {} : {trace: inside(attempt.trace, 'trace')}),
  }
}
