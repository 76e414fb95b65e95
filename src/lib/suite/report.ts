import type {Box, Finding} from '../a11y/types.js'
import type {Shard} from './shard.js'

/** One step of one attempt, as the reports show it. */
export interface StepRecord {
  step: string
  /** Its line in the test file. */
  line?: number
  ok: boolean
  exitCode: number
  durationMs: number
  /** What the step printed, cut to a sane length. */
  output: string
  /** An accessibility step's findings (expect --a11y, a11y), and the view their rects are in. */
  findings?: Finding[]
  view?: Box
}

/** What tapir saw when an attempt failed. Paths are relative to the report's folder. */
export interface Evidence {
  screenshot?: string
  snapshot?: string
  console?: unknown[]
  exceptions?: unknown[]
  /** What could not be read, in words (no screenshot from an app that cannot take one, ...). */
  missing?: string[]
}

export interface Failure {
  message: string
  /** The test file, relative to where tapir test ran. */
  file: string
  line?: number
  step?: string
  /** 1-based number of the step. */
  stepNumber?: number
}

export interface Attempt {
  passed: boolean
  durationMs: number
  startedAt: string
  steps: StepRecord[]
  failure?: Failure
  evidence?: Evidence
  /** The attempt's trace, relative to the report's folder (tapir show-trace <it>). */
  trace?: string
}

export type TestStatus = 'passed' | 'failed' | 'flaky'

export interface TestRecord {
  /** The test file, relative to where tapir test ran, with /. */
  file: string
  status: TestStatus
  durationMs: number
  attempts: Attempt[]
}

/** A suite's report: what report.json holds, and what junit.xml and report.html are made from. */
export interface SuiteReport {
  tool: 'tapir test'
  version: 1
  startedAt: string
  durationMs: number
  fresh: string
  shard?: Shard
  tests: TestRecord[]
}

export interface Totals {
  total: number
  passed: number
  failed: number
  flaky: number
}

export function totalsOf(report: SuiteReport): Totals {
  const count = (status: TestStatus) => report.tests.filter((test) => test.status === status).length
  return {total: report.tests.length, passed: count('passed'), failed: count('failed'), flaky: count('flaky')}
}

/** The attempt a report shows for a test: its last failure when it failed, else its passing one. */
export function shownAttempt(test: TestRecord): Attempt {
  const last = test.attempts.at(-1)
  const shown = test.status === 'failed' ? last : (test.attempts.find((attempt) => attempt.passed) ?? last)
  if (!shown) throw new Error(`The report of ${test.file} holds no attempt.`)
  return shown
}
