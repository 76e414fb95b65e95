import {describe, expect, it} from 'vitest'
import {checkRun} from '../../src/lib/perf/compare-input.js'
import {renderComparison} from '../../src/lib/perf/compare-table.js'
import {compareRuns, hasErrorRegression, judge, orderRows, type CompareRow} from '../../src/lib/perf/compare.js'
import type {RunFile, Spread} from '../../src/lib/perf/run-file.js'

type Series = Record<string, [min: number, median: number, max: number]>

const spreadOf = (series: Series): Record<string, Spread> =>
  Object.fromEntries(Object.entries(series).map(([m, [min, , max]]) => [m, {min, max, rangePct: null}]))
const mediansOf = (series: Series): Record<string, number> =>
  Object.fromEntries(Object.entries(series).map(([m, [, median]]) => [m, median]))

function run(options: {
  perFrame?: Series
  timing?: Series
  timingRepeats?: number
  emulator?: boolean
  thresholds?: {warn: number; error: number}
  name?: string
  painted?: number
  buildMode?: string
}): RunFile {
  const perFrame = options.perFrame ?? {}
  const timing = options.timing
  return {
    scenario: {name: options.name ?? 'list', ...(options.thresholds ? {thresholds: options.thresholds} : {})},
    label: 'run',
    env: {target: 'lib/main.dart', buildMode: options.buildMode ?? 'profile', emulator: options.emulator ?? false},
    summary: {
      repeats: 3,
      refused: 0,
      frames: {count: options.painted ?? 40, painted: options.painted ?? 40, dropped: 0, overBudget: 0},
      perFrame: mediansOf(perFrame),
      ms: {},
      spread: {perFrame: spreadOf(perFrame), ms: {}},
      ...(timing ? {timing: {repeats: options.timingRepeats ?? 3, refused: 0, ms: mediansOf(timing), spread: {ms: spreadOf(timing)}}} : {}),
    },
    insights: [],
  }
}

const t = {warn: 10, error: 25}

describe('judge (one metric)', () => {
  it('calls a change inside the repeat-to-repeat range unchanged, however large in percent', () => {
    expect(judge('blocks.Text', 1, 1.5, 0.5, t)).toMatchObject({verdict: 'unchanged', deltaPct: 50})
    expect(judge('blocks.Text', 1, 1.5, 0.49, t)).toMatchObject({verdict: 'regressed', severity: 'error', deltaPct: 50})
  })
  it('grades by the thresholds: error at +25%, warn at +10%, improved at -10%', () => {
    expect(judge('m', 2, 2.5, 0, t)).toMatchObject({verdict: 'regressed', severity: 'error', deltaPct: 25})
    expect(judge('m', 2, 2.2, 0, t)).toMatchObject({verdict: 'regressed', severity: 'warn', deltaPct: 10})
    expect(judge('m', 2, 2.1, 0, t)).toMatchObject({verdict: 'unchanged', deltaPct: 5})
    expect(judge('m', 2, 1.8, 0, t)).toMatchObject({verdict: 'improved', deltaPct: -10})
  })
  it('reads A = 0: B = 0 is unchanged, anything else a warn regression with no ratio', () => {
    expect(judge('m', 0, 0, 0, t)).toEqual({metric: 'm', a: 0, b: 0, deltaPct: 0, verdict: 'unchanged'})
    expect(judge('m', 0, 3, 0, t)).toEqual({metric: 'm', a: 0, b: 3, deltaPct: null, verdict: 'regressed', severity: 'warn'})
  })
  it('flips the sign for higher-is-better metrics (wind.cacheHits)', () => {
    expect(judge('wind.cacheHits', 4, 2, 0, t)).toMatchObject({verdict: 'regressed', severity: 'error', deltaPct: -50})
    expect(judge('wind.cacheHits', 2, 4, 0, t)).toMatchObject({verdict: 'improved', deltaPct: 100})
    expect(judge('wind.cacheHits', 0, 4, 0, t)).toMatchObject({verdict: 'improved', deltaPct: null})
  })
})

describe('compareRuns', () => {
  it('takes the noise as the wider of the two runs ranges', () => {
    const a = run({perFrame: {'blocks.Row': [0.9, 1, 1.1]}})
    const b = run({perFrame: {'blocks.Row': [1.25, 1.3, 1.35]}})
    expect(compareRuns(a, b)).toMatchObject({verdict: 'regressed', unchanged: 0})
    const noisyB = run({perFrame: {'blocks.Row': [0.9, 1.3, 1.6]}})
    expect(compareRuns(a, noisyB)).toMatchObject({verdict: 'unchanged', rows: [], unchanged: 1})
  })
  it('counts a metric present on one side only as 0 on the other', () => {
    const comparison = compareRuns(run({perFrame: {'blocks.Old': [1, 1, 1]}}), run({perFrame: {'blocks.New': [2, 2, 2]}}))
    expect(comparison.rows).toEqual([
      {metric: 'blocks.New', a: 0, b: 2, deltaPct: null, verdict: 'regressed', severity: 'warn'},
      {metric: 'blocks.Old', a: 1, b: 0, deltaPct: -100, verdict: 'improved'},
    ])
    expect(hasErrorRegression(comparison)).toBe(false)
  })
  it('gates milliseconds only when both runs have a timing pass', () => {
    const timing: Series = {'buildMs.p50': [1, 1, 1]}
    const slower: Series = {'buildMs.p50': [2, 2, 2]}
    const onlyB = compareRuns(run({}), run({timing: slower}))
    expect(onlyB.timing).toEqual({
      gated: false,
      note: 'Milliseconds were not compared: only timing-mode medians are, and A has no timing pass. Rerun both perf_runs with timing on.',
    })
    expect(onlyB.rows).toEqual([])
    const refusedA = compareRuns(run({timing, timingRepeats: 0}), run({timing: slower}))
    expect(refusedA.timing.gated).toBe(false)
    const both = compareRuns(run({timing}), run({timing: slower}))
    expect(both.timing).toEqual({gated: true})
    expect(both.rows).toEqual([{metric: 'timing.buildMs.p50', a: 1, b: 2, deltaPct: 100, verdict: 'regressed', severity: 'error'}])
  })
  it('makes raster milliseconds info only when either run was on an emulator', () => {
    const a = run({timing: {'rasterMs.p50': [1, 1, 1], 'buildMs.p50': [1, 1, 1]}})
    const b = run({timing: {'rasterMs.p50': [3, 3, 3], 'buildMs.p50': [1, 1, 1]}, emulator: true})
    const comparison = compareRuns(a, b)
    expect(comparison.rows).toEqual([{metric: 'timing.rasterMs.p50', a: 1, b: 3, deltaPct: 200, verdict: 'info'}])
    expect(comparison.verdict).toBe('unchanged')
    expect(hasErrorRegression(comparison)).toBe(false)
  })
  it('adds context rows when the scenario, target or build mode differ, absent when missing', () => {
    const b = run({name: 'detail', buildMode: 'debug'})
    delete b.env.target
    expect(compareRuns(run({}), b).rows).toEqual([
      {metric: 'scenario.name', a: 'list', b: 'detail', deltaPct: null, verdict: 'info'},
      {metric: 'env.target', a: 'lib/main.dart', b: 'absent', deltaPct: null, verdict: 'info'},
      {metric: 'env.buildMode', a: 'profile', b: 'debug', deltaPct: null, verdict: 'info'},
    ])
  })
  it("takes B's thresholds, else A's, else 10/25", () => {
    const loose = {warn: 50, error: 100}
    const a = run({perFrame: {m: [1, 1, 1]}})
    const b = run({perFrame: {m: [1.6, 1.6, 1.6]}})
    expect(compareRuns(a, b).thresholds).toEqual({warn: 10, error: 25})
    expect(compareRuns(run({perFrame: {m: [1, 1, 1]}, thresholds: loose}), b)).toMatchObject({
      thresholds: loose,
      rows: [{severity: 'warn'}],
    })
    expect(compareRuns(a, run({perFrame: {m: [1.6, 1.6, 1.6]}, thresholds: {warn: 70, error: 80}}))).toMatchObject({verdict: 'unchanged'})
  })
})

describe('orderRows', () => {
  it('puts error regressions, then warn, then improvements, then info; larger changes first, no ratio first', () => {
    const row = (metric: string, verdict: CompareRow['verdict'], deltaPct: number | null, severity?: 'error' | 'warn'): CompareRow => ({
      metric,
      a: 1,
      b: 1,
      deltaPct,
      verdict,
      ...(severity ? {severity} : {}),
    })
    const ordered = orderRows([
      row('info', 'info', null),
      row('improvedSmall', 'improved', -12),
      row('warnSmall', 'regressed', 11, 'warn'),
      row('errorSmall', 'regressed', 30, 'error'),
      row('improvedBig', 'improved', -60),
      row('warnNew', 'regressed', null, 'warn'),
      row('errorBig', 'regressed', 90, 'error'),
    ])
    expect(ordered.map((r) => r.metric)).toEqual(['errorBig', 'errorSmall', 'warnNew', 'warnSmall', 'improvedBig', 'improvedSmall', 'info'])
  })
})

describe('renderComparison', () => {
  it('prints the verdict, the painted frames, the aligned rows and the unchanged count', () => {
    const a = run({perFrame: {'blocks.Row': [1, 1, 1], 'blocks.Text': [3, 3, 3], 'magic.routeChanges': [0, 0, 0]}})
    const b = run({perFrame: {'blocks.Row': [2, 2, 2], 'blocks.Text': [3, 3, 3], 'magic.routeChanges': [0.1, 0.1, 0.1]}, painted: 44})
    expect(renderComparison(compareRuns(a, b)).split('\n')).toEqual([
      'perf_compare: regressed (per painted frame; warn +10%, error +25%)',
      'painted frames: 40 -> 44 (info, not gated)',
      `${'metric'.padEnd(44)}         A         B    delta`,
      `${'blocks.Row'.padEnd(44)}      1.00      2.00  +100.0% (error)`,
      `${'magic.routeChanges'.padEnd(44)}      0.00      0.10      new (warn)`,
      '1 metrics unchanged. Milliseconds were not compared: only timing-mode medians are, and A and B have no timing pass. Rerun both perf_runs with timing on.',
    ])
  })
  it('cuts at 20 rows and points at --json', () => {
    const many: Series = Object.fromEntries(Array.from({length: 23}, (_, i) => [`blocks.W${i}`, [1, 1, 1]]))
    const more: Series = Object.fromEntries(Array.from({length: 23}, (_, i) => [`blocks.W${i}`, [2, 2, 2]]))
    const lines = renderComparison(compareRuns(run({perFrame: many}), run({perFrame: more}))).split('\n')
    expect(lines).toHaveLength(2 + 1 + 20 + 2)
    expect(lines.at(-2)).toBe('3 more rows; pass --json for all.')
  })
})

describe('checkRun', () => {
  it('refuses a run whose every repeat was refused, and what is not a run file', () => {
    const refused = {...run({}), summary: {...run({}).summary, repeats: 0, refused: 3}}
    expect(() => checkRun(refused, 'A', 'a.json')).toThrow(
      'Run A has no measured repeat: every one was refused (3), so there is nothing to compare. Rerun it with the page in front.',
    )
    expect(() => checkRun([], 'B', 'b.json')).toThrow('Run B (b.json) is not a tapir:perf_run file')
  })
})
