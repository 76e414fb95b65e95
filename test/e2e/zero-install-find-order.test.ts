import {describe, expect, it} from 'vitest'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {refOf, withSimSession, type SimSession} from '../helpers/sim.js'

expectNoProcessLeft()

/** Finds that give several predicates on the sign-in screen, and the field the one that applies
 *  names: the first set in the order semanticsLabel, text, contains (the reference, tapir_find:
 *  "The predicates are not intersected"), the others ignored, not ANDed. */
const FINDS: Array<[flags: string[], field: 'Email' | 'Password']> = [
  [['--text=Email', '--contains=Forgot'], 'Email'],
  [['--semanticsLabel=Password', '--text=Email'], 'Password'],
  [['--contains=mail', '--text=Password'], 'Password'],
  [['--contains=Pass', '--semanticsLabel=Email'], 'Email'],
  // An empty predicate is not given: the package's call leaves it out.
  [['--semanticsLabel=', '--text=Email'], 'Email'],
]

/** The value a textbox shows in a snapshot, `null` when the line is not there. */
function fieldValue(snapshot: string, field: string): string | null {
  return new RegExp(`- textbox "${field}"(?:: "([^"]*)")?`).exec(snapshot)?.[1] ?? (snapshot.includes(`- textbox "${field}"`) ? '' : null)
}

/** The same finds, the same answers, with the package and without: both surfaces resolve one
 *  predicate, and `within` bounds it. */
async function findsOneOfSeveral(s: SimSession): Promise<void> {
  for (const [flags, field] of FINDS) {
    const found = await s.run(['tapir:find', ...flags])
    expect(found, flags.join(' ')).toMatchObject({exitCode: 0, stderr: ''})
    const answer = JSON.parse(found.stdout) as {matched: boolean; ref: string; matchCount: number}
    expect(answer, flags.join(' ')).toMatchObject({matched: true, matchCount: 1})
    expect(await s.run(['tapir:fill', `--ref=${answer.ref}`, '--text=abc'])).toMatchObject({exitCode: 0, stderr: ''})
    const snap = (await s.run(['tapir:snap'])).stdout
    const other = field === 'Email' ? 'Password' : 'Email'
    expect(fieldValue(snap, field), `${flags.join(' ')}\n${snap}`).toMatch(/^(abc|•••)$/)
    expect(fieldValue(snap, other), `${flags.join(' ')}\n${snap}`).toBe('')
    expect(await s.run(['tapir:fill', `--ref=${answer.ref}`, '--text='])).toMatchObject({exitCode: 0})
  }
  // Of a heading and a button labelled "Sign in", the button; text is ignored beside semanticsLabel.
  const both = await s.run(['tapir:find', '--semanticsLabel=Sign in', '--text=Email'])
  expect(JSON.parse(both.stdout)).toMatchObject({matched: true, matchCount: 2})
  // within bounds the predicate that applies: under the button, one "Sign in".
  const button = refOf((await s.run(['tapir:snap'])).stdout, /button "Sign in"/)
  const scoped = await s.run(['tapir:find', `--within=${button}`, '--semanticsLabel=Sign in', '--text=Email'])
  expect(scoped).toMatchObject({exitCode: 0, stderr: ''})
  expect(JSON.parse(scoped.stdout)).toMatchObject({matched: true, matchCount: 1})
}

describe('find with several predicates uses the first that is set, on an app with no package (--package=none)', () => {
  const s = withSimSession({package: 'none'})

  it('names the node of the predicate that applies, as the package does', async () => {
    await findsOneOfSeveral(s)
    // The handle keeps only that predicate.
    const found = JSON.parse((await s.run(['tapir:find', '--semanticsLabel=Password', '--text=Email'])).stdout) as {ref: string}
    expect((await s.run(['tapir:snap', `--within=${found.ref}`])).stdout).toBe('- textbox "Password" [ref=e4]\n  typeable: true')
  }, 60_000)
})

describe('find with several predicates uses the first that is set, with the package', () => {
  const s = withSimSession()

  it('names the node of the predicate that applies', async () => {
    await findsOneOfSeveral(s)
  }, 60_000)
})
