import {XMLParser} from 'fast-xml-parser'
import {describe, expect, it} from 'vitest'
import {junitXml} from '../../src/lib/suite/junit.js'
import type {Attempt, SuiteReport, TestRecord} from '../../src/lib/suite/report.js'

const attempt = (passed: boolean, why: string): Attempt => ({
  passed,
  durationMs: 10,
  startedAt: '2026-01-01T00:00:00.000Z',
  steps: [{step: 'tap --ref=e4', line: 2, ok: passed, exitCode: passed ? 0 : 3, durationMs: 9, output: passed ? '' : why}],
  ...(passed
    ? {}
    : {
        failure: {
          message: `a.tapir:2: step 1 (tap --ref=e4) failed (exit 3): ${why}`,
          file: 'a.tapir',
          line: 2,
          step: 'tap --ref=e4',
          stepNumber: 1,
        },
      }),
})

const report = (test: TestRecord): SuiteReport => ({
  tool: 'tapir test',
  version: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 30,
  fresh: 'restart',
  tests: [test],
})

const testcase = (xml: string) =>
  (
    new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      isArray: (name) => name === 'failure' || name.endsWith('Failure'),
    }).parse(xml) as {
      testsuites: {testsuite: {testcase: Record<string, unknown>}}
    }
  ).testsuites.testsuite.testcase

// Maven Surefire's StatelessXmlReporter.serializeTestClassWithRerun is the form; Jenkins'
// junit-plugin (FlakyFailure, RerunFailure) and action-junit-report read it.
describe('JUnit retries as Surefire writes them', () => {
  it('a flaky test: one <flakyFailure> per failed attempt, no <failure>', () => {
    const test: TestRecord = {
      file: 'a.tapir',
      status: 'flaky',
      durationMs: 30,
      attempts: [attempt(false, 'first'), attempt(false, 'second'), attempt(true, '')],
    }
    const xml = testcase(junitXml(report(test)))
    expect(xml.failure).toBeUndefined()
    expect(xml.rerunFailure).toBeUndefined()
    expect(xml.flakyFailure).toEqual([
      expect.objectContaining({
        '@_message': expect.stringContaining('first'),
        '@_type': 'StepFailed',
        stackTrace: expect.stringContaining('first'),
      }),
      expect.objectContaining({
        '@_message': expect.stringContaining('second'),
        'system-out': expect.stringContaining('[1] tap --ref=e4 (line 2) failed (exit 3)'),
      }),
    ])
  })

  it('a test that failed every attempt: the first as <failure>, each later one as <rerunFailure>', () => {
    const test: TestRecord = {
      file: 'a.tapir',
      status: 'failed',
      durationMs: 30,
      attempts: [attempt(false, 'first'), attempt(false, 'second')],
    }
    const xml = testcase(junitXml(report(test)))
    expect(xml.failure).toEqual([expect.objectContaining({'@_message': expect.stringContaining('first')})])
    expect(xml.rerunFailure).toEqual([
      expect.objectContaining({'@_message': expect.stringContaining('second'), stackTrace: expect.stringContaining('second')}),
    ])
    expect(xml.flakyFailure).toBeUndefined()
  })

  it('a test run once: a plain <failure>, and nothing of reruns', () => {
    const xml = testcase(junitXml(report({file: 'a.tapir', status: 'failed', durationMs: 10, attempts: [attempt(false, 'only')]})))
    expect(xml.failure).toEqual([expect.objectContaining({'@_message': expect.stringContaining('only')})])
    expect(xml.rerunFailure).toBeUndefined()
  })
})
