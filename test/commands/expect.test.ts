import {afterAll, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {simSession, type SimSession} from '../helpers/sim.js'

describe('tapir:expect', () => {
  let s: SimSession
  beforeAll(async () => {
    s = await simSession({}, 'in-process')
  })
  beforeEach(() => {
    s.sim.app.restart()
  })
  afterAll(async () => {
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  it('passes when the widgets are there, counted, visible and enabled, at the route', async () => {
    const counted = await s.run(['tapir:expect', '--text=Sign in', '--count=2'])
    expect(counted.exitCode, counted.stderr).toBe(0)
    expect(counted.stdout).toMatch(/^✓ 2 widgets with text "Sign in" \(after \d+ ms\)$/)
    const states = await s.run(['tapir:expect', '--label=Email', '--visible', '--enabled', '--route=/login'])
    expect(states.exitCode, states.stderr).toBe(0)
    expect(states.stdout).toMatch(/^✓ A widget with label "Email", visible and enabled and the route "\/login"/)
    const gone = await s.run(['tapir:expect', '--key=nope', '--gone', '--timeoutMs=0'])
    expect(gone.exitCode, gone.stderr).toBe(0)
  })

  it('fails with exit 1 naming what it saw once the timeout passes', async () => {
    const missing = await s.run(['tapir:expect', '--text=Nope', '--timeoutMs=300'])
    expect(missing.exitCode).toBe(1)
    expect(missing.stdout).toBe('')
    expect(missing.stderr).toMatch(/^✗ Expected a widget with text "Nope" within (3\d\d|[4-9]\d\d|\d{4,}) ms; saw no such widget\.$/)
    const count = await s.run(['tapir:expect', '--text=Sign in', '--count=1', '--timeoutMs=0'])
    expect(count.stderr).toContain('saw 2 such widgets')
    expect(count.exitCode).toBe(1)
    const route = await s.run(['tapir:expect', '--route=/settings', '--timeoutMs=0', '--json'])
    expect(route.exitCode).toBe(1)
    expect(JSON.parse(route.stdout)).toMatchObject({passed: false, expected: 'the route "/settings"', saw: 'the route "/login"'})
    const disabled = await s.run(['tapir:expect', '--text=Email', '--no-enabled', '--timeoutMs=0'])
    expect(disabled.stderr).toContain('enabled: true')
    expect(disabled.exitCode).toBe(1)
  })

  it('waits for a condition that comes true while it waits', async () => {
    const run = await s.run([
      'tapir:run',
      'find --key=email --as=email',
      'fill --ref=@email --text=ada@example.com',
      'find --key=password --as=password',
      'fill --ref=@password --text=hunter22',
      'find --key=signIn --as=go',
      'tap --ref=@go',
      'expect --route=/monitors --text=Monitors',
    ])
    expect(run.exitCode, run.stderr).toBe(0)
  })

  it('refuses a call that says nothing to expect, or states it cannot read by key', async () => {
    const none = await s.run(['tapir:expect'])
    expect(none.exitCode).toBe(1)
    expect(none.stderr).toMatch(/^✗ Say what to expect: --text, --contains, --label, --key for a widget, or --route/)
    const byKey = await s.run(['tapir:expect', '--key=email', '--visible'])
    expect(byKey.exitCode).toBe(1)
    expect(byKey.stderr).toContain('--visible is read from observe')
  })
})

describe('tapir:run --strict', () => {
  let s: SimSession
  beforeAll(async () => {
    s = await simSession({}, 'in-process')
  })
  beforeEach(() => {
    s.sim.app.restart()
  })
  afterAll(async () => {
    await s.close()
  })

  it('fails a step whose answer reports a soft failure; without --strict the run passes', async () => {
    for (const step of ['find --text=Nope', 'navigate --route=/nowhere']) {
      const loose = await s.run(['tapir:run', step])
      expect(loose.exitCode, step).toBe(0)
      const strict = await s.run(['tapir:run', '--strict', step])
      expect(strict.exitCode, step).toBe(1)
      expect(strict.stderr.split('\n')[0]).toBe(`✗ step 1 failed (exit 1): ${step}`)
    }
    const until = await s.run(['tapir:run', '--strict', 'find --key=signIn --as=go', 'tap --ref=@go --until=Nope --untilTimeoutMs=100'])
    expect(until.exitCode).toBe(1)
    expect(until.stderr).toContain('✗ tap answered untilMatched: false, so a strict run fails it')
  })

  it('leaves the standalone verbs their exit codes', async () => {
    const find = await s.run(['tapir:find', '--text=Nope'])
    expect(find.exitCode).toBe(0)
    expect(JSON.parse(find.stdout)).toMatchObject({matched: false})
  })
})
