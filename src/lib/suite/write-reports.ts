import {join, relative, sep} from 'node:path'
import {UsageError} from '../errors.js'
import {checkOutputFile, writeOutputFile, type OutputKind} from '../output-file.js'
import {ensureFolder} from '../write-atomic.js'
import {TEST_REPORT_HEAD, htmlReport} from './html.js'
import {JUNIT_HEAD, junitXml} from './junit.js'
import {readBoundedFile} from './read-evidence.js'
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

/** Refuses, before any test runs, a report path that holds a file tapir test did not write. */
export function checkReports(reporters: readonly Reporter[], outputDir: string): void {
  for (const name of fileReporters(reporters)) checkOutputFile(join(outputDir, REPORT_FILES[name]), REPORT_KINDS[name])
}

export function parseReporters(text: string): Reporter[] {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  const unknown = names.filter((name) => !(REPORTERS as readonly string[]).includes(name))
  if (names.length === 0 || unknown.length > 0)
    throw new UsageError(`--reporter=${text}: give a comma-separated list of ${REPORTERS.join(', ')} (e.g. --reporter=list,junit).`)
  return [...new Set(names)] as Reporter[]
}

/** Writes the report files the reporters ask for into `outputDir`, each atomically; returns their names. */
export function writeReports(report: SuiteReport, reporters: readonly Reporter[], outputDir: string, cwd: string): string[] {
  const written: string[] = []
  const files = fileReporters(reporters)
  if (files.length === 0) return written
  ensureFolder(outputDir)
  for (const name of files) {
    const data =
      name === 'junit'
        ? junitXml(report, relative(cwd, outputDir).split(sep).join('/') || '.')
        : name === 'html'
          ? htmlReport(report, (path) => readBoundedFile(outputDir, path))
          : `${JSON.stringify(report, null, 2)}\n`
    writeOutputFile(join(outputDir, REPORT_FILES[name]), data, REPORT_KINDS[name])
    written.push(REPORT_FILES[name])
  }
  return written
}
