import {beforeAll, describe, expect, it} from 'vitest'
import {refOf, signIn, withSimSession} from '../helpers/sim.js'

describe('the Stable step of the actionability gate', () => {
  const s = withSimSession({}, 'in-process')
  beforeAll(async () => {
    await signIn(s)
  })

  it('refuses a widget still sliding in (exit 3), passes with --no-checkStable, and passes once it settled', async () => {
    const monitors = (await s.run(['tapir:snap'])).stdout
    await s.run(['tapir:tap', `--ref=${refOf(monitors, /button "New monitor"/)}`])
    const sheet = (await s.run(['tapir:snap'])).stdout
    const create = refOf(sheet, /button "Create"/)
    const moving = await s.run(['tapir:tap', `--ref=${create}`, '--json'])
    expect(moving.exitCode).toBe(3)
    expect(JSON.parse(moving.stdout).error).toMatchObject({
      message: expect.stringMatching(new RegExp(`^Widget ref=${create} is not actionable: not stable \\(rect changed by [\\d.]+px\\)$`)),
      envelope: {type: 'not_stable'},
    })
    expect(moving.stderr).toMatch(/^✗ Widget ref=e\d+ is not actionable: not stable/)

    const unchecked = await s.run(['tapir:tap', `--ref=${create}`, '--no-checkStable'])
    expect(unchecked.exitCode).toBe(0) // an empty name: the sheet stays open and says so
    expect((await s.run(['tapir:snap'])).stdout).toContain('- text "Enter a name"')

    for (let i = 0; i < 6; i++) await s.run(['tapir:snap', '--interactiveOnly'])
    await s.run(['tapir:fill', `--ref=${refOf(sheet, /textbox "Name"/)}`, '--text=Status page'])
    expect(await s.run(['tapir:tap', `--ref=${create}`])).toMatchObject({exitCode: 0, stdout: `✓ Tapped ${create}`})
    expect((await s.run(['tapir:snap'])).stdout).toContain('- text "21 monitors"')
  })
})
