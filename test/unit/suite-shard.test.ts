import {XMLParser} from 'fast-xml-parser'
import {describe, expect, it} from 'vitest'
import {junitXml} from '../../src/lib/suite/junit.js'
import {mergeReports} from '../../src/lib/suite/merge.js'
import type {SuiteReport, TestRecord} from '../../src/lib/suite/report.js'
import {parseShard, pickShard} from '../../src/lib/suite/shard.js'

const FILES = Array.from({length: 11}, (_, index) => `flows/f${String(index).padStart(2, '0')}.tapir`)

const test = (file: string, passed: boolean, extra: Partial<TestRecord> = {}): TestRecord => ({
  file,
  status: passed ? 'passed' : 'failed',
  durationMs: 10,
  attempts: [{passed, durationMs: 10, startedAt: '2026-01-01T00:00:00.000Z', steps: []}],
  ...extra,
})
const report = (tests: TestRecord[]): SuiteReport => ({
  tool: 'tapir test',
  version: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 20,
  fresh: 'restart',
  tests,
})

describe('shards', () => {
  it('are disjoint and cover every file, by file and by durations alike', () => {
    const durations = new Map(FILES.map((file, index) => [file, (index * 7919) % 1000]))
    for (const total of [1, 2, 3, 4, 11, 12]) {
      for (const weights of [undefined, durations]) {
        const shards = Array.from({length: total}, (_, index) => pickShard(FILES, {index: index + 1, total}, weights))
        expect(shards.flat().sort()).toEqual(FILES)
        expect(new Set(shards.flat()).size).toBe(FILES.length)
      }
    }
  })

  it('are the same for the same files whatever their order', () => {
    const reversed = [...FILES].reverse()
    const durations = new Map([[FILES[0]!, 500]])
    expect(pickShard(reversed.sort(), {index: 2, total: 3}, durations)).toEqual(pickShard(FILES, {index: 2, total: 3}, durations))
  })

  it('balance by durations: a long test gets a shard to itself', () => {
    const durations = new Map([
      ['a.tapir', 9000],
      ['b.tapir', 10],
      ['c.tapir', 10],
      ['d.tapir', 10],
    ])
    const files = [...durations.keys()]
    expect(pickShard(files, {index: 1, total: 2}, durations)).toEqual(['a.tapir'])
    expect(pickShard(files, {index: 2, total: 2}, durations)).toEqual(['b.tapir', 'c.tapir', 'd.tapir'])
    // by file, the same files are dealt out in turn
    expect(pickShard(files, {index: 1, total: 2})).toEqual(['a.tapir', 'c.tapir'])
  })

  it('read i/n and refuse anything else', () => {
    expect(parseShard('2/4')).toEqual({index: 2, total: 4})
    for (const bad of ['0/2', '3/2', '1/0', '1', 'a/b', '1/2/3', '-1/2'])
      expect(() => parseShard(bad), bad).toThrow(/give i\/n, the i-th of n shards/)
  })
})

describe('JUnit', () => {
  it('escapes what a file, a step or the app may hold, and drops what XML cannot carry', () => {
    const hostile = 'a "q" <b> & \u0007 \ud800 ]]>'
    const failed = test('flows/x&y.tapir', false)
    failed.attempts[0]!.failure = {file: 'flows/x&y.tapir', line: 2, step: hostile, stepNumber: 1, message: `flows/x&y.tapir:2: ${hostile}`}
    failed.attempts[0]!.steps = [{step: hostile, line: 2, ok: false, exitCode: 1, durationMs: 3, output: hostile}]
    const xml = junitXml(report([failed, test('ok.tapir', true)]))
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      isArray: (name) => ['testsuite', 'testcase'].includes(name),
    }).parse(xml, true)
    const cases = parsed.testsuites.testsuite.flatMap((suite: {testcase: unknown[]}) => suite.testcase)
    expect(cases).toHaveLength(2)
    const bad = cases.find((entry: {'@_file': string}) => entry['@_file'] === 'flows/x&y.tapir')
    expect(bad.failure['@_message']).toBe('flows/x&y.tapir:2: a "q" <b> & \ufffd \ufffd ]]>')
    expect(bad['@_line']).toBe('2')
  })
})

describe('merge-reports', () => {
  it('refuses a test two shards ran, and renames screenshots from the merged folder', () => {
    const failed = test('a.tapir', false)
    failed.attempts[0]!.evidence = {screenshot: 'evidence/a-attempt1.png'}
    const merged = mergeReports(
      [
        {folder: '/ci/shard-1', report: report([failed])},
        {folder: '/ci/shard-2', report: report([test('b.tapir', true)])},
      ],
      '/ci/merged',
    )
    expect(merged.tests.map((entry) => entry.file)).toEqual(['a.tapir', 'b.tapir'])
    expect(merged.tests[0]!.attempts[0]!.evidence!.screenshot).toBe('../shard-1/evidence/a-attempt1.png')
    expect(() =>
      mergeReports(
        [
          {folder: '/ci/shard-1', report: report([test('a.tapir', true)])},
          {folder: '/ci/shard-2', report: report([test('a.tapir', true)])},
        ],
        '/ci/merged',
      ),
    ).toThrow(/a\.tapir is in two of the reports/)
    const outside = test('c.tapir', false)
    outside.attempts[0]!.evidence = {screenshot: '../../etc/passwd'}
    expect(() => mergeReports([{folder: '/ci/shard-1', report: report([outside])}], '/ci/merged')).toThrow(/outside its folder/)
  })
})
