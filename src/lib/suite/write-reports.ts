import {accessSync, constants, statSync} from 'node:fs'
import {dirname, join, relative, sep} from 'node:path'
import {TapirError, UsageError, errorCode, messageOf} from '../errors.js'
import {checkOutputFile, writeOutputFile, type OutputKind} from '../output-file.js'
import {ensureFolder, fileError} from '../write-atomic.js'
import {TEST_REPORT_HEAD, htmlReport} from './html.js'
import {JUNIT_HEAD, junitXml} from './junit.js'
import {readEvidenceImage} from './read-evidence.js'
import type {SuiteReport} from './report.js'

export const REPORTERS = ['list', 'junit', 'html', 'json'] as const
export type Reporter = (typeof REPORTERS)[number]

/** The file each reporter that writes one writes, in the output folder. */
export const REPORT_FILES = {junit: 'junit.xml', html: 'report.html', json: 'report.json'} as const

type FileReporter = Exclude<Reporter, 'list'>

/** A report file is replaced only when it is tapir test's own: its first bytes say so. */
const startsWith = (what: string, head: string): OutputKind => ({
  what,
  headBytes: head.length,
  isOwn: (bytes) => bytes.toString('utf8') === head,
})
const REPORT_KINDS: Record<FileReporter, OutputKind> = {
  junit: startsWith('a JUnit report of tapir test', JUNIT_HEAD),
  html: startsWith('a tapir test report', TEST_REPORT_HEAD),
  json: startsWith('a tapir test report', '{\n  "tool": "tapir test"'),
}

const fileReporters = (reporters: readonly Reporter[]): FileReporter[] => reporters.filter((name): name is FileReporter => name !== 'list')

/** Refuses, before any test runs, a report folder tapir cannot write (or make), and a report path
 *  that holds a file tapir test did not write. */
export function checkReports(reporters: readonly Reporter[], outputDir: string): void {
  const files = fileReporters(reporters)
  if (files.length === 0) return
  checkReportFolder(outputDir)
  for (const name of files) checkOutputFile(join(outputDir, REPORT_FILES[name]), REPORT_KINDS[name])
}

/** The report folder, or the nearest folder above it that exists (where it is to be made), must be
 *  a folder this user can write into. */
function checkReportFolder(outputDir: string): void {
  let at = outputDir
  for (;;) {
    let stats
    try {
      stats = statSync(at)
    } catch (error) {
      if (errorCode(error) === 'ENOENT' && dirname(at) !== at) {
        at = dirname(at)
        continue
      }
      throw new TapirError(`${fileError('write the reports to', outputDir, error).message} Choose another --output-dir.`, 'local')
    }
    const unusable = !stats.isDirectory() ? `${at} is not a folder` : writable(at) ? undefined : `${at} is not writable`
    if (unusable) throw new TapirError(`Cannot write the reports to ${outputDir}: ${unusable}. Choose another --output-dir.`, 'local')
    return
  }
}

function writable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK | constants.X_OK)
    return true
  } catch {
    return false
  }
}

export function parseReporters(text: string): Reporter[] {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  const isReporter = (name: string): name is Reporter => REPORTERS.some((reporter) => reporter === name)
  const unknown = names.filter((name) => !isReporter(name))
  if (names.length === 0 || unknown.length > 0)
    throw new UsageError(`--reporter=${text}: give a comma-separated list of ${REPORTERS.join(', ')} (e.g. --reporter=list,junit).`)
  return [...new Set(names.filter(isReporter))]
}

/** Writes the report files the reporters ask for into `outputDir`, each atomically; returns the
 *  names written and, for each that could not be, why (the others are still written). `image` reads
 *  a screenshot the report names relative to `outputDir`. */
export function writeReports(
  report: SuiteReport,
  reporters: readonly Reporter[],
  outputDir: string,
  cwd: string,
  image: (path: string) => Buffer | undefined = (path) => readEvidenceImage(outputDir, path),
): {written: string[]; failures: string[]} {
  const written: string[] = []
  const failures: string[] = []
  const files = fileReporters(reporters)
  if (files.length === 0) return {written, failures}
  try {
    ensureFolder(outputDir)
  } catch (error) {
    return {written, failures: [messageOf(error)]}
  }
  for (const name of files) {
    try {
      const data =
        name === 'junit'
          ? junitXml(report, relative(cwd, outputDir).split(sep).join('/') || '.')
          : name === 'html'
            ? htmlReport(report, image)
            : `${JSON.stringify(report, null, 2)}\n`
      writeOutputFile(join(outputDir, REPORT_FILES[name]), data, REPORT_KINDS[name])
      written.push(REPORT_FILES[name])
    } catch (error) {
      failures.push(messageOf(error))
    }
  }
  return {written, failures}
}
