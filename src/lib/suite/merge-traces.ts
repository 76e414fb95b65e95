import {isAbsolute, join, relative, resolve, sep} from 'node:path'
import {messageOf} from '../errors.js'
import {checkOutputFile} from '../output-file.js'
import {MAX_TRACE_READ_BYTES} from '../trace/read-trace.js'
import {TRACE_OUTPUT} from '../trace/trace-file.js'
import {writeAtomic} from '../write-atomic.js'
import {readEvidenceFile} from './read-evidence.js'
import type {Attempt, SuiteReport} from './report.js'
import {TRACES_FOLDER} from './run-suite.js'

/** A name tapir gives a trace in a report's `traces/` folder: one part, no separator. */
const TRACE_NAME = /^[^/\\]+\.trace$/

/**
 * Copies the traces a merged report links (each named, by mergeReports, relative to the merged
 * folder and pointing into the shard it came from) into the merged folder's own `traces/`, and
 * links the copies, so the merged report works on its own as each shard's did. A shard's report is
 * taken as hostile: only `traces/<name>.trace` of a shard folder is read, through folders and no
 * symbolic link, a regular file of at most the size a trace reader takes, starting as a trace
 * does; what fails is not linked and is named in the answer's failures.
 */
export function carryTraces(report: SuiteReport, outputDir: string, shards: readonly string[]): {report: SuiteReport; failures: string[]} {
  const failures: string[] = []
  const written = new Set<string>()
  const carry = (file: string, attempt: Attempt): Attempt => {
    if (attempt.trace === undefined) return attempt
    const {trace, ...rest} = attempt
    const refuse = (why: string): Attempt => {
      failures.push(`The trace of ${file} (${trace}) is not in the merged report: ${why}.`)
      return rest
    }
    const absolute = isAbsolute(trace) ? undefined : resolve(outputDir, trace)
    const shard = absolute === undefined ? undefined : shards.find((folder) => absolute.startsWith(folder + sep))
    if (absolute === undefined || shard === undefined) return refuse('it is not inside a shard folder')
    const parts = relative(shard, absolute).split(sep)
    const name = parts[1] ?? ''
    if (parts.length !== 2 || parts[0] !== TRACES_FOLDER || !TRACE_NAME.test(name))
      return refuse(`a shard keeps its traces as ${TRACES_FOLDER}/<name>.trace`)
    const target = join(outputDir, TRACES_FOLDER, name)
    const linked = `${TRACES_FOLDER}/${name}`
    if (written.has(target)) return refuse(`another test's trace has the name ${name}`)
    if (target === absolute) {
      written.add(target)
      return {...rest, trace: linked}
    }
    const bytes = readEvidenceFile(shard, join(TRACES_FOLDER, name), MAX_TRACE_READ_BYTES, TRACE_OUTPUT)
    if (bytes === undefined) return refuse('it is not a tapir trace file in the shard (a missing file, a link, or too large)')
    try {
      checkOutputFile(target, TRACE_OUTPUT)
      writeAtomic(target, bytes, {refuseLinks: true, mode: 0o600})
    } catch (error) {
      return refuse(messageOf(error).replace(/\.$/, ''))
    }
    written.add(target)
    return {...rest, trace: linked}
  }
  const tests = report.tests.map((test) => ({...test, attempts: test.attempts.map((attempt) => carry(test.file, attempt))}))
  return {report: {...report, tests}, failures}
}
