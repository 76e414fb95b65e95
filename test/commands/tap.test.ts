import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {refOf, signIn, simSession, type SimSession} from '../helpers/sim.js'

describe('tapir:tap against the sim', () => {
  let s: SimSession
  let monitors: string
  beforeAll(async () => {
    s = await simSession({}, 'in-process')
    await signIn(s)
    monitors = (await s.run(['tapir:snap'])).stdout
  })
  afterAll(async () => {
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  it('find a button, tap its qN, and the next snap shows the screen it led to', async () => {
    const find = JSON.parse((await s.run(['tapir:find', '--text=Web'])).stdout)
    const tap = await s.run(['tapir:tap', `--ref=${find.ref}`])
    expect(tap).toMatchObject({exitCode: 0, stdout: `✓ Tapped ${find.ref}`, stderr: ''})
    const detail = await s.run(['tapir:snap'])
    expect(detail.stdout).toContain('- heading "Web"')
    expect(detail.stdout).toContain('- text "Status: up"')
    expect((await s.run(['tapir:navigate_back'])).stdout).toBe('✓ Navigated back')
  })

  it('says so when the tap changed nothing', async () => {
    const heading = refOf(monitors, /heading "Monitors"/)
    expect(await s.run(['tapir:tap', `--ref=${heading}`])).toMatchObject({
      exitCode: 0,
      stdout: `✓ Tapped ${heading} (no observable change)`,
    })
  })

  it.each([
    ['a disabled button', /button "Export"/, 'not enabled'],
    ['a zero-size button', /button "Refresh"/, 'zero rect'],
    ['a covered button', /\[occluded\]/, 'obscured by other widget (top=FloatingActionButton)'],
  ])('refuses %s with the gate reason, exit 3', async (_name, pattern, reason) => {
    const ref = refOf(monitors, pattern)
    const result = await s.run(['tapir:tap', `--ref=${ref}`])
    expect(result).toMatchObject({exitCode: 3, stdout: '', stderr: `✗ Widget ref=${ref} is not actionable: ${reason}`})
  })

  it('--no-checkReceivesEvents skips the obscured check', async () => {
    const ref = refOf(monitors, /\[occluded\]/)
    const result = await s.run(['tapir:tap', `--ref=${ref}`, '--no-checkReceivesEvents', '--json'])
    expect(result.exitCode).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ref})
  })

  it('an off-viewport widget no scroll can reach is refused', async () => {
    await s.run(['tapir:navigate', '--route=/settings'])
    const settings = (await s.run(['tapir:snap'])).stdout
    const ref = refOf(settings, /button "Sync now"/)
    const result = await s.run(['tapir:tap', `--ref=${ref}`])
    expect(result.exitCode).toBe(3)
    // The refusal, then why: where the widget lies, that no scroll brings it in, and the overflow that put it there.
    expect(result.stderr).toMatch(
      new RegExp(
        `^✗ Widget ref=${ref} is not actionable: off-viewport \\(rect=.*, viewport=.*\\)\\. ${ref} lies 4 px past the right edge of the viewport \\(its far edge 100 px out\\)\\. The app scrolled what encloses it before refusing, so no Scrollable brings it in along x\\. A RenderFlex overflow the app reported \\(116 px on the right\\) covers that spot: no gesture can reach it until the layout is fixed \\(tapir:exceptions shows the overflow\\)\\.$`,
      ),
    )
    await s.run(['tapir:navigate', '--route=/monitors'])
  })

  it('an unknown ref is the wire string "Widget ref=<ref> is not actionable: <reason>", exit 3; --json keeps the envelope and the code', async () => {
    const result = await s.run(['tapir:tap', '--ref=e999', '--json'])
    expect(result.exitCode).toBe(3)
    expect(JSON.parse(result.stdout)).toMatchObject({
      error: {
        message: 'Widget ref=e999 is not actionable: not found in registry (take a snapshot and use a ref from it)',
        exitCode: 3,
        code: -32000,
        envelope: {type: 'not_found', widget_path: 'e999'},
      },
    })
    for (const verb of ['tapir:tap', 'tapir:clear', 'tapir:dblclick', 'tapir:hover']) {
      const refused = await s.run([verb, '--ref=e999'])
      expect(refused, verb).toMatchObject({exitCode: 3, stdout: ''})
      expect(
        refused.stderr.startsWith('✗ Widget ref=e999 is not actionable: not found in registry (take a snapshot and use a ref from it).'),
        refused.stderr,
      ).toBe(true)
    }
  })

  it('a ref whose widget left the tree is defunct (stale), exit 3', async () => {
    await s.run(['tapir:tap', `--ref=${refOf(monitors, /button "API"/)}`])
    const detail = (await s.run(['tapir:snap'])).stdout
    const remove = refOf(detail, /button "Delete"/)
    expect((await s.run(['tapir:navigate_back'])).exitCode).toBe(0)
    const result = await s.run(['tapir:tap', `--ref=${remove}`, '--json'])
    expect(result.exitCode).toBe(3)
    expect(JSON.parse(result.stdout).error).toMatchObject({exitCode: 3, envelope: {type: 'stale'}})
    expect(result.stderr).toBe(
      `✗ Widget ref=${remove} is not actionable: defunct (element no longer mounted). Run tapir:snap (or tapir:find again) for a fresh ref.`,
    )
  })

  it('a stale eN is re-resolved by its label and index when the count still matches', async () => {
    const fresh = (await s.run(['tapir:snap'])).stdout
    const pause = refOf(fresh, /button "Pause" \[ref=e\d+\]$/)
    await s.run(['tapir:tap', `--ref=${pause}`]) // Pause becomes Resume: a new widget
    const again = (await s.run(['tapir:snap'])).stdout
    const resume = refOf(again, /button "Resume"/)
    await s.run(['tapir:tap', `--ref=${resume}`]) // back to Pause, again a new widget
    const result = await s.run(['tapir:tap', `--ref=${pause}`, '--json'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({reresolved: [pause]})
  })

  it('a qN handle nothing matches any more is a stale handle, exit 3', async () => {
    await s.run(['tapir:tap', `--ref=${refOf(monitors, /button "Queue"/)}`])
    const remove = JSON.parse((await s.run(['tapir:find', '--text=Delete'])).stdout)
    expect(remove.matched).toBe(true)
    await s.run(['tapir:navigate_back'])
    const result = await s.run(['tapir:tap', `--ref=${remove.ref}`, '--json'])
    expect(result.exitCode).toBe(3)
    expect(JSON.parse(result.stdout).error.envelope.type).toBe('stale')
  })

  it('--snapshot=diff prints the JSON with only the changed lines', async () => {
    await s.run(['tapir:snap'])
    const pause = JSON.parse((await s.run(['tapir:find', '--text=Pause'])).stdout)
    const result = await s.run(['tapir:tap', `--ref=${pause.ref}`, '--snapshot=diff'])
    expect(result.exitCode).toBe(0)
    const body = JSON.parse(result.stdout)
    expect(body.snapshotMode).toBe('diff')
    expect(body.snapshot).toMatch(/^- - button "(Pause|Resume)".*\n\+ - button "(Resume|Pause)"/m)
    expect(body.snapshot).toMatch(/\(\d+ of \d+ lines changed\)\n?$/)
  })

  it('--until reports untilMatched in the JSON', async () => {
    const db = JSON.parse((await s.run(['tapir:find', '--text=DB'])).stdout)
    const result = await s.run(['tapir:tap', `--ref=${db.ref}`, '--until=Status: up'])
    expect(result.exitCode).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({effect: {kind: 'treeChanged', changed: true}, untilMatched: true})
    await s.run(['tapir:navigate_back'])
  })

  it('a merged tile taps its own control (retargeted)', async () => {
    const tile = refOf((await s.run(['tapir:snap'])).stdout, /button "Alerts enabled"/)
    const result = await s.run(['tapir:tap', `--ref=${tile}`, '--json'])
    expect(result.exitCode).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({retargeted: {ownerRect: {left: 316, top: 68, width: 52, height: 40}}})
  })

  it('a missing --ref is a usage error naming the flag, exit 1', async () => {
    expect(await s.run(['tapir:tap'])).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: '✗ Missing --ref=<eN>. Run tapir:snap first to obtain refs.',
    })
  })
})

describe('tapir:tap against a fresh sim: relocations, scoped handles, a hidden window', () => {
  let s: SimSession
  beforeEach(async () => {
    s = await simSession({}, 'in-process')
    await signIn(s)
  })
  afterEach(async () => {
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  it('a relocation made by a call the gate then refused is reported by the next call that succeeds, once', async () => {
    const fresh = (await s.run(['tapir:snap'])).stdout
    const [list] = /button "API" \[ref=(e\d+)\]/.exec(fresh)!.slice(1)
    const covered = refOf(fresh, /button "Pause" \[ref=e\d+\] \[occluded\]/) // under the FAB
    expect((await s.run(['tapir:scroll', `--ref=${list}`, '--dy=300'])).exitCode).toBe(0)
    expect((await s.run(['tapir:tap', `--ref=${covered}`])).exitCode).toBe(0) // Pause becomes Resume: a new widget
    const resume = refOf((await s.run(['tapir:snap'])).stdout, /button "Resume"/)
    expect((await s.run(['tapir:tap', `--ref=${resume}`])).exitCode).toBe(0) // and Pause again: the ref's node is gone
    expect((await s.run(['tapir:scroll', `--ref=${list}`, '--dy=-300'])).exitCode).toBe(0)
    const refused = await s.run(['tapir:tap', `--ref=${covered}`, '--json']) // relocated, then under the FAB again
    expect(refused.exitCode).toBe(3)
    expect(JSON.parse(refused.stdout).error.envelope).toMatchObject({type: 'obscured', widget_path: covered})
    const next = await s.run(['tapir:scroll', `--ref=${covered}`, '--intoView', '--json'])
    expect(next.exitCode, next.stderr).toBe(0)
    expect(JSON.parse(next.stdout)).toMatchObject({reresolved: [covered]})
    expect(JSON.parse((await s.run(['tapir:scroll', `--ref=${covered}`, '--intoView', '--json'])).stdout)).not.toHaveProperty('reresolved')
  })

  it('a qN whose within scope left the tree reports matched: false with a diagnostic naming the scope, exit 3', async () => {
    const fresh = (await s.run(['tapir:snap'])).stdout
    const pause = refOf(fresh, /button "Pause" \[ref=e\d+\]$/)
    const handle = JSON.parse((await s.run(['tapir:find', '--text=Pause', `--within=${pause}`])).stdout)
    expect(handle).toMatchObject({ref: expect.stringMatching(/^q\d+$/), matched: true})
    await s.run(['tapir:tap', `--ref=${pause}`]) // Pause becomes Resume: the scope's node leaves the tree
    const result = await s.run(['tapir:tap', `--ref=${handle.ref}`, '--json'])
    expect(result.exitCode).toBe(3)
    const diagnostic = `within ref ${pause} no longer resolves; re-snap and pass a fresh e<N> ref`
    expect(JSON.parse(result.stdout).error).toMatchObject({
      message: `Query handle ref=${handle.ref} is stale: ${diagnostic}`,
      envelope: {type: 'stale', widget_path: handle.ref, matched: false, diagnostic},
    })
  })

  it('a tap on a hidden window lands: tapir wakes it (framesForced), so the tap reads as landed, with no banner', async () => {
    const fresh = (await s.run(['tapir:snap'])).stdout
    const pause = refOf(fresh, /button "Pause" \[ref=e\d+\]$/)
    s.sim.app.setLifecycle('hidden')
    try {
      expect(await s.run(['tapir:tap', `--ref=${pause}`])).toMatchObject({exitCode: 0, stdout: `✓ Tapped ${pause}`, stderr: ''})
      const resume = refOf((await s.run(['tapir:snap'])).stdout, /button "Resume"/)
      const json = JSON.parse((await s.run(['tapir:tap', `--ref=${resume}`, '--json'])).stdout)
      expect(json).toMatchObject({effect: {kind: 'treeChanged', changed: true}, framesForced: true})
      expect(json).not.toHaveProperty('warnings')
    } finally {
      s.sim.app.setLifecycle('resumed')
    }
  })
})
