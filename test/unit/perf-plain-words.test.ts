import {describe, expect, it} from 'vitest'
import {buildModeNote, metricWords, plainTitle, whatToChange} from '../../src/lib/perf/report/plain-words.js'
import {softFailureOf} from '../../src/lib/run/strict.js'

describe('a static perf report in plain words', () => {
  it('keeps the change an insight asks for and drops the tool a page cannot run', () => {
    expect(
      whatToChange(
        "Run tapir_perf_insight with id=I3 for the frames where it weighed most; then make SparkBar's build cheaper (cache what it computes, or build it once).",
        'blocks.selfMs',
      ),
    ).toBe("Make SparkBar's build cheaper (cache what it computes, or build it once).")
    expect(
      whatToChange('Run tapir_perf_insight with id=I2 for the gaps, then read the frame named in each gap\'s "after".', 'frames.dropped'),
    ).toBe('Read the frame named in each gap\'s "after".')
    expect(whatToChange('Run tapir_perf_insight with id=I6 for what each missing source leaves out.', 'coverage.missing')).toMatch(
      /^Nothing to change in the app for this: read the parts not measured as unknown, not as zero/,
    )
    expect(whatToChange('Run tapir_perf_insight with id=I9 for more.', 'something.else')).toBeUndefined()
  })

  it('names sources and metrics in words, and says what a build mode means', () => {
    expect(plainTitle('Sources not read: wind')).toBe('Not measured in this run: the Wind styling counters')
    expect(plainTitle('SparkBar runs 2 times per painted frame')).toBe('SparkBar runs 2 times per painted frame')
    expect(metricWords('frames.overBudget')).toBe('frames over the budget')
    expect(metricWords('wind.cacheHits')).toBe('wind cache hits')
    expect(buildModeNote('debug')).toMatchObject({level: 'warn', text: expect.stringMatching(/^Debug build: /)})
    expect(buildModeNote('profile')).toMatchObject({level: 'info', text: expect.stringMatching(/^Profile build: /)})
    expect(buildModeNote(undefined).text).toMatch(/^Build mode unknown/)
  })
})

describe('a strict run', () => {
  it('reads the soft failures of an answer', () => {
    expect(softFailureOf({ref: null, matched: false})).toBe('matched: false')
    expect(softFailureOf({ref: 'q1', untilMatched: false})).toBe('untilMatched: false')
    expect(softFailureOf({navigated: false})).toBe('navigated: false')
    expect(softFailureOf({effect: {verified: false}})).toBe('effect.verified: false')
    expect(softFailureOf({matched: true, effect: {verified: true}})).toBeUndefined()
    expect(softFailureOf(undefined)).toBeUndefined()
  })
})
