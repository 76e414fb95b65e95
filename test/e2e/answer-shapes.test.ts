import {describe, expect, it} from 'vitest'
import {refOf, withSimSession} from '../helpers/sim.js'

// An answer the reference allows is no malformed answer (test/unit/documented-answers.test.ts
// holds every documented shape): here the one the sim sends for the reference's "not scrolled"
// case of tapir_scroll.
describe('tapir:scroll --intoView on a widget with no Scrollable around it', () => {
  const s = withSimSession()

  it('reports that nothing scrolled, exit 0, where it said "malformed answer … finalOffset is null"', async () => {
    const snap = await s.run(['tapir:snap'])
    const ref = refOf(snap.stdout, /heading "Sign in"/)
    const result = await s.run(['tapir:scroll', `--ref=${ref}`, '--intoView'])
    expect(result.stderr).toBe('')
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toBe(`✓ Nothing scrolled around ${ref} (already at the edge, or no Scrollable around it)`)
  })
})
