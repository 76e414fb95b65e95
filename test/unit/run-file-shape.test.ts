import {describe, expect, it} from 'vitest'
import {readRunFile} from '../../src/lib/perf/run-file-check.js'

const runFile = (): Record<string, unknown> => ({
  scenario: {name: 'list', thresholds: {warn: 10, error: 25}},
  label: 'before',
  env: {target: 'lib/main.dart', buildMode: 'profile', emulator: false},
  summary: {
    repeats: 3,
    refused: 0,
    frames: {count: 40, painted: 40, dropped: 0, overBudget: 1},
    perFrame: {'blocks.Row': 1.5},
    ms: {},
    spread: {perFrame: {'blocks.Row': {min: 1, max: 2, rangePct: 40}}, ms: {}},
  },
  insights: [],
})

const problems = (value: unknown): string[] => {
  const read = readRunFile(value)
  return 'problems' in read ? read.problems : []
}

describe('a run file is one shape, checked once, its problems in its own words', () => {
  it('gives back the very value it checked, typed', () => {
    const value = runFile()
    const read = readRunFile(value)
    expect('run' in read && read.run).toBe(value)
  })

  it('names the file itself when it is not an object, and what is missing', () => {
    expect(problems([])).toEqual(['the file: a JSON object is expected, not a list'])
    const {label: _label, ...unlabelled} = runFile()
    expect(problems(unlabelled)).toEqual(['label: text is expected, not missing'])
  })

  it('says what is wrong beyond a kind, and still every kind problem beside it', () => {
    const value = runFile()
    const summary = value.summary as Record<string, unknown>
    summary.spread = {perFrame: {'blocks.Row': {min: 3, max: 2, rangePct: -1}}, ms: {}}
    value.scenario = {thresholds: {warn: 30, error: 20}}
    expect(problems(value)).toEqual([
      'scenario.thresholds: 0 < warn < error is expected',
      'summary.spread.perFrame["blocks.Row"].rangePct: a number of at least 0 is expected, not a negative number',
      'summary.spread.perFrame["blocks.Row"]: min is above max',
    ])
  })

  it('takes null for text that says nothing, and counts problems past twenty', () => {
    expect(problems({...runFile(), variant: null, env: {target: null}})).toEqual([])
    const value = runFile()
    ;(value.summary as Record<string, unknown>).perFrame = Object.fromEntries(Array.from({length: 25}, (_, i) => [`m${i}`, 'x']))
    const listed = problems(value)
    expect(listed).toHaveLength(21)
    expect(listed.at(-1)).toBe('… and 5 more problems')
  })
})
