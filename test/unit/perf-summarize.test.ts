import {describe, expect, it} from 'vitest'
import {
  medianAndSpread,
  medianRepeat,
  msMetrics,
  perFrameMetrics,
  summarizeAttribution,
  summarizeTiming,
  type Repeat,
} from '../../src/lib/perf/summarize.js'

const dist = (p50: number) => ({p50, p90: p50 * 2, p99: p50 * 3, worst: p50 * 4})

function repeat(index: number, painted: number, sparkPerFrame: number, options: {refused?: boolean; series?: string} = {}): Repeat {
  if (options.refused) return {series: options.series ?? 'attribution', index, refused: true}
  return {
    series: options.series ?? 'attribution',
    index,
    refused: false,
    summary: {
      frames: {count: painted + 1, painted, dropped: 1, overBudget: 0, buildMs: dist(1 + index), rasterMs: dist(2)},
      blocksByCount: [{name: 'SparkBar', perFrame: sparkPerFrame}],
    },
    counters: {wind: null, magic: {controllerNotifies: [['GoRouter', 2, 0.1]], routeChanges: {count: 2, perFrame: 0.1}, cacheSize: 20}},
    insights: [{id: `I${index}`}],
  }
}

describe('perf_run summaries', () => {
  it('reads per-frame counts from blocks and counters, leaving gauges out', () => {
    expect(perFrameMetrics(repeat(0, 20, 40))).toEqual({
      'blocks.SparkBar': 40,
      'magic.controllerNotifies.GoRouter': 0.1,
      'magic.routeChanges': 0.1,
    })
    expect(msMetrics(repeat(0, 20, 40))).toMatchObject({'buildMs.p50': 1, 'buildMs.worst': 4, 'rasterMs.p90': 4})
  })
  it('takes medians and ranges, a metric missing from a repeat counting 0', () => {
    expect(medianAndSpread([{a: 1, b: 2}, {a: 3}, {a: 2, b: 4}])).toEqual({
      medians: {a: 2, b: 2},
      spread: {a: {min: 1, max: 3, rangePct: 100}, b: {min: 0, max: 4, rangePct: 200}},
    })
    expect(medianAndSpread([{z: 0}, {z: 0}]).spread.z).toEqual({min: 0, max: 0, rangePct: null})
  })
  it('leaves refused repeats out of the medians and counts them', () => {
    const summary = summarizeAttribution([repeat(0, 20, 40), repeat(1, 0, 0, {refused: true}), repeat(2, 22, 44), repeat(3, 21, 42)])
    expect(summary).toMatchObject({repeats: 3, refused: 1, frames: {painted: 21, count: 22, dropped: 1}, perFrame: {'blocks.SparkBar': 42}})
    expect(summary.spread.perFrame['blocks.SparkBar']).toEqual({min: 40, max: 44, rangePct: 9.5})
    expect(summarizeTiming([repeat(0, 20, 0, {series: 'timing'}), repeat(1, 0, 0, {refused: true, series: 'timing'})])).toMatchObject({
      repeats: 1,
      refused: 1,
      ms: {'buildMs.p50': 1},
    })
  })
  it('takes the insights of the median repeat by painted frames', () => {
    expect(medianRepeat([repeat(0, 30, 1), repeat(1, 10, 1), repeat(2, 20, 1)])?.index).toBe(2)
    expect(medianRepeat([repeat(0, 0, 0, {refused: true})])).toBeUndefined()
  })
})
