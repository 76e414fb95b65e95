import {describe, expect, it} from 'vitest'
import type {StepResult} from '../../src/lib/run/execute.js'
import {runOutcome} from '../../src/lib/run/render.js'

const step = (name: string, output: string): StepResult => ({
  step: name,
  ok: true,
  exitCode: 0,
  output,
  outcome: {stdout: output, stderr: [], exitCode: 0},
})

/** The progress line of a one-step run of `output`. */
const progress = (output: string) =>
  runOutcome({steps: [step('x', output), step('last', 'done')], failed: null}, 2, false).stdout.split('\n')[0]

describe('a tapir:run progress line', () => {
  it("shows a step's JSON result on one line, not its first line", () => {
    expect(progress('{\n  "ref": "q1",\n  "matched": true\n}')).toBe('[1/2] x ok: {"ref":"q1","matched":true}')
  })

  it('shows the first line of anything else, including text that only starts like JSON', () => {
    expect(progress('✓ Filled q1\nmore')).toBe('[1/2] x ok: ✓ Filled q1')
    expect(progress('{not json\nsecond')).toBe('[1/2] x ok: {not json')
  })

  it('cuts a long line at 120 characters', () => {
    const line = progress(JSON.stringify({text: 'a'.repeat(300)}))
    expect(line.length).toBe('[1/2] x ok: '.length + 120)
    expect(line.endsWith('…')).toBe(true)
  })
})
