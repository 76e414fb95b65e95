import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {sessionFile, tapir, tempDir} from '../helpers/cli.js'
import {simSession, type SimSession, withSimSession} from '../helpers/sim.js'

describe('the VM Service connection, against the raw VM', () => {
  let s: SimSession
  beforeAll(async () => {
    s = await simSession()
  })
  afterEach(() => {
    s.sim.setFaults({latencyMs: 0, dropSocketOn: null, hangOn: null, malformedOn: null, extensionsMissing: false, paused: false})
  })
  afterAll(async () => {
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  it('sends every extension param as a string (the sim refuses anything else)', async () => {
    const result = await s.run(['tapir:snap', '--depth=3', '--interactiveOnly'])
    expect(result.exitCode, result.stderr).toBe(0)
    const call = s.sim.requests.findLast((request) => request.method === 'ext.tapir.snap')!
    expect(call.params).toMatchObject({depth: '3', interactiveOnly: 'true', includeEnrichers: 'false'})
    expect(call.params.isolateId).toMatch(/^isolates\//)
    for (const value of Object.values(call.params)) expect(typeof value).toBe('string')
  })

  it('an app without tapir is driven zero-install; a verb only the package serves is refused naming tapir install', async () => {
    s.sim.setFaults({extensionsMissing: true})
    expect(await s.run(['tapir:snap', '--grep=^Email$'])).toMatchObject({
      exitCode: 0,
      stdout: '- textbox "Email" [ref=e2]\n  typeable: true',
    })
    // docs/zero-install.md: expect is not available, refused in one line naming tapir install (exit 1).
    const finds = () => s.sim.requests.filter((request) => request.method === 'ext.tapir.find').length
    const before = finds()
    const result = await s.run(['tapir:expect', '--text=Email', '--timeoutMs=100'])
    expect(result).toMatchObject({exitCode: 1, stdout: ''})
    expect(result.stderr).toMatch(/^✗ tapir:expect has no zero-install form: .*; run tapir install to add the package\.$/)
    expect(finds()).toBe(before)
  })

  it('keeps exit 3 with --json and puts the code in the JSON error', async () => {
    const result = await s.run(['tapir:tap', '--ref=e999', '--json'])
    expect(result.exitCode).toBe(3)
    expect(JSON.parse(result.stdout)).toMatchObject({
      error: {message: expect.stringContaining('not found in registry'), exitCode: 3, code: -32000},
    })
  })

  it('a dropped connection fails the call with exit 3', async () => {
    s.sim.setFaults({dropSocketOn: 'ext.tapir.snap'})
    const result = await s.run(['tapir:snap'])
    expect(result.exitCode).toBe(3)
    expect(result.stderr).toMatch(/^✗ The VM Service connection closed before ext\.tapir\.snap answered/)
  })

  it('a hung call times out after --timeout ms with exit 3', async () => {
    s.sim.setFaults({hangOn: 'ext.tapir.snap'})
    const started = Date.now()
    const result = await s.run(['tapir:snap', '--timeout=400'])
    expect(result.exitCode).toBe(3)
    expect(result.stderr).toBe(
      '✗ ext.tapir.snap got no answer within 400 ms. The app may be paused at a breakpoint or busy; resume it, or raise --timeout.',
    )
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('a paused isolate holds the reply until the timeout', async () => {
    s.sim.setFaults({paused: true})
    const result = await s.run(['tapir:observe', '--timeout=300'])
    expect(result.exitCode).toBe(3)
    expect(result.stderr).toContain('got no answer within 300 ms')
  })

  it('a malformed frame fails the call it answered with exit 3', async () => {
    s.sim.setFaults({malformedOn: 'ext.tapir.snap'})
    const result = await s.run(['tapir:snap'])
    expect(result.exitCode).toBe(3)
    expect(result.stderr).toMatch(/^✗ ext\.tapir\.snap was answered with a frame that is not JSON/)
  })

  it('latency only slows the answer down', async () => {
    s.sim.setFaults({latencyMs: 150})
    const result = await s.run(['tapir:snap', '--interactiveOnly'])
    expect(result.exitCode).toBe(0)
  })

  it('a wrong token gets 403: exit 3 without the token in the message', async () => {
    const dir = tempDir()
    const wrong = s.sim.httpUri.replace(s.sim.token, 'WrongToken1=')
    const result = await tapir(['tapir:snap', '--state', sessionFile(dir.path, wrong)])
    expect(result.exitCode).toBe(3)
    expect(result.stderr).toMatch(/^✗ Cannot reach the app's VM Service at ws:\/\/127\.0\.0\.1:\d+\/\*\*\*\/ws: .*403/)
    expect(result.stderr).not.toContain('WrongToken1=')
    dir.remove()
  })

  it('a port nothing listens on exits 3', async () => {
    const dir = tempDir()
    const result = await tapir(['tapir:snap', '--state', sessionFile(dir.path, 'ws://127.0.0.1:9/AbCdEfGh12s=/ws')])
    expect(result.exitCode).toBe(3)
    expect(result.stderr).toContain("Cannot reach the app's VM Service at ws://127.0.0.1:9/***/ws")
    dir.remove()
  })

  it('an unknown flag is a usage error, exit 1', async () => {
    const result = await s.run(['tapir:snap', '--bogus'])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(/^✗ Nonexistent flag: --bogus\. See `tapir tapir:snap --help`\.$/)
  })
})

describe('the VM Service connection, behind DDS', () => {
  const s = withSimSession({mode: 'dds'})

  it('follows the VM redirect to DDS and answers', async () => {
    const result = await s.run(['tapir:snap', '--interactiveOnly'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/\[ref=e\d+\]/)
  })
})
