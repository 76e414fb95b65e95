import {describe, expect, it} from 'vitest'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {signIn, withSimSession, ZERO_INSTALL_SIGN_IN_STEPS} from '../helpers/sim.js'

expectNoProcessLeft()

// `within` takes "the e<N> ref of the region" (the reference, tapir_find and tapir_snap): a ref
// param, so a tapir:run step may give it a name an earlier find or observe bound with --as.

describe('tapir:run gives --within a bound @name, on an app with no package (--package=none)', () => {
  const s = withSimSession({package: 'none'})

  it('scopes snap and find to the bound widget', async () => {
    const run = await s.run([
      'tapir:run',
      ...ZERO_INSTALL_SIGN_IN_STEPS,
      'find --semanticsLabel=Monitors --as=m --matches=2',
      'snap --within=@m',
      'find --within=@m --semanticsLabel=Monitors --as=inside',
      'observe --roles=button --as=api --label=API',
      'snap --within=@api',
    ])
    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    // The heading and the nav button share the label; find's handle names the button.
    expect(run.stdout).toContain('[9/12] snap --within=@m ok: - button "Monitors" [ref=e68]\n')
    expect(run.stdout).toContain(
      '[10/12] find --within=@m --semanticsLabel=Monitors --as=inside ok: {"matched":true,"ref":"q5","matchCount":1}',
    )
    expect(run.stdout).toContain('[12/12] snap --within=@api ok:\n- button "API" [ref=e14]')
  }, 60_000)

  it('refuses a name no step bound before running anything', async () => {
    const run = await s.run(['tapir:run', 'snap --within=@nowhere'])
    expect(run).toMatchObject({exitCode: 1, stdout: ''})
    expect(run.stderr).toContain('@nowhere is not bound')
  })
})

describe('tapir:run gives --within a bound @name, with the package', () => {
  const s = withSimSession()

  it("sends the bound qN, which the package's snap refuses by name (within takes an eN)", async () => {
    await signIn(s)
    const run = await s.run(['tapir:run', 'find --semanticsLabel=Monitors --as=m --matches=2', 'snap --within=@m'])
    expect(run.exitCode, run.stdout + run.stderr).toBe(3)
    expect(run.stdout + run.stderr).toContain('the q<N> handle "q4" is not addressable here')
    expect(run.stdout + run.stderr).not.toContain('@m"')
  }, 60_000)

  it('refuses a name no step bound before running anything', async () => {
    const run = await s.run(['tapir:run', 'find --within=@nowhere --text=API'])
    expect(run).toMatchObject({exitCode: 1, stdout: ''})
    expect(run.stderr).toContain('@nowhere is not bound')
  })
})
