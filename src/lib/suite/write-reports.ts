import {join, relative, sep} from 'node:path'
import {UsageError} from '../errors.js'
import {ensureFolder, writeAtomic} from '../write-atomic.js'
import {htmlReport} from './html.js'
import {junitXml} from './junit.js'
import {readBoundedFile} from './read-evidence.js'
import type {SuiteReport} from './report.js'

export const REPORTERS = ['list', 'junit', 'html', 'json'] as const
export type Reporter = (typeof REPORTERS)[number]

/** The file each reporter that writes one writes, in the output folder. */
export const REPORT_FILES = {junit: 'junit.xml', html: 'report.html', json: 'report.json'} as const

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
  const files = reporters.filter((name): name is Exclude<Reporter, 'list'> => name !== 'list')
  if (files.length === 0) return written
  ensureFolder(outputDir)
  for (const name of files) {
    const data =
      name === 'junit'
        ? junitXml(report, relative(cwd, outputDir).split(sep).join('/') || '.')
        : name === 'html'
          ? htmlReport(report, (path) => readBoundedFile(outputDir, path))
          : `${JSON.stringify(report, null, 2)}\n`
    writeAtomic(join(outputDir, REPORT_FILES[name]), data)
    written.push(REPORT_FILES[name])
  }
  return written
}
