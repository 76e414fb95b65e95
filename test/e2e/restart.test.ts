import {writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {chromeBinary} from '../helpers/chrome.js'
import {alive, flutterProject, type Session} from '../helpers/flutter-project.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'

// `tapir restart` is `tapir stop` then `tapir start` with every option the first start was given.

expectNoProcessLeft()

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      {length: count},
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve) => {
          const server = createServer().listen(0, '127.0.0.1', () => resolve(server))
        }),
    ),
  )
  const ports = servers.map((server) => (server.address() as {port: number}).port)
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  return ports
}

/** Whether `argv` holds `flag` followed by `value` (the sim and flutter take options as two words). */
const hasOption = (argv: string[], flag: string, value: string) => argv.some((part, at) => part === flag && argv[at + 1] === value)
const optionValues = (argv: string[], flag: string) => argv.flatMap((part, at) => (part === flag ? [argv[at + 1]] : []))

/** Restarts and answers the new session, after checking the old processes are gone. */
async function restart(p: ReturnType<typeof flutterProject>, env: Record<string, string> = {}): Promise<Session> {
  const old = Object.values(p.session()!.processes).map((record) => record.pid)
  const result = await p.run(['restart'], env)
  expect(result.exitCode, result.stderr).toBe(0)
  for (const pid of old) expect(alive(pid), `old pid ${pid}`).toBe(false)
  return p.session()!
}

describe('tapir restart keeps every start option', () => {
  it('the sim: --mode, --port, each --fault and TAPIR_SIM_FAULTS', async () => {
    const p = flutterProject()
    const [port] = await freePorts(1)
    try {
      const start = await p.run(['start', '--device=sim', '--mode=dds', `--port=${port}`, '--fault=reload-error', '--fault=latency=20'], {
        TAPIR_SIM_FAULTS: 'lifecycle=hidden',
      })
      expect(start.exitCode, start.stderr).toBe(0)
      const first = p.session()!
      // Restarted without the variable: the knob it gave is kept all the same.
      const session = await restart(p)
      expect(session.startArgs).toEqual(first.startArgs)
      const argv = session.processes.app!.argv
      expect(hasOption(argv, '--mode', 'dds'), argv.join(' ')).toBe(true)
      expect(hasOption(argv, '--port', String(port)), argv.join(' ')).toBe(true)
      expect(new URL(session.vmServiceUri!).port).toBe(String(port))
      expect(optionValues(argv, '--fault').sort()).toEqual(['latency=20', 'lifecycle=hidden', 'reload-error'])
      // The knobs act: the next hot reload fails to compile, and the hidden app had to be woken.
      const reload = await p.run(['reload'])
      expect(reload.exitCode).toBe(1)
      expect(reload.stderr).toMatch(/^✗ Hot reload failed: .*Error: Expected ';' after this\./)
      const snap = await p.run(['tapir:snap', '--json'])
      expect(JSON.parse(snap.stdout), snap.stderr).toMatchObject({framesForced: true})
      // With --json, one document: stop's answer, then start's.
      const json = await p.run(['restart', '--json'])
      expect(json.exitCode, json.stderr).toBe(0)
      expect(JSON.parse(json.stdout)).toEqual({
        stop: {removed: expect.any(String), stopped: [expect.any(Number)]},
        start: expect.objectContaining({pid: expect.any(Number), vmServiceUri: expect.stringContaining('/***/')}),
      })
      // Restarted with the variable again: each knob once.
      const again = await restart(p, {TAPIR_SIM_FAULTS: 'lifecycle=hidden'})
      expect(optionValues(again.processes.app!.argv, '--fault').sort()).toEqual(['latency=20', 'lifecycle=hidden', 'reload-error'])
      expect((await p.run(['stop'])).exitCode).toBe(0)
    } finally {
      await p.run(['stop'])
      p.dir.remove()
    }
  }, 90_000)

  it('the sim in Chromium: --cdp-port and --web-port', async () => {
    const p = flutterProject()
    const [cdpPort, webPort] = await freePorts(2)
    const chrome = {TAPIR_CHROME_BIN: await chromeBinary()}
    try {
      const start = await p.run(['start', '--device=sim', `--cdp-port=${cdpPort}`, `--web-port=${webPort}`], chrome)
      expect(start.exitCode, start.stderr).toBe(0)
      const session = (await restart(p, chrome)) as Session & {cdpPort: number; webPort: number}
      expect(session).toMatchObject({cdpPort, webPort})
      expect(Object.keys(session.processes).sort()).toEqual(['app', 'chrome'])
      expect(hasOption(session.processes.app!.argv, '--web-port', String(webPort))).toBe(true)
      expect(session.processes.chrome!.argv).toContain(`--remote-debugging-port=${cdpPort}`)
      expect((await p.run(['tapir:device', '--preset=pixel-8'])).exitCode).toBe(0)
      expect((await p.run(['stop'])).exitCode).toBe(0)
    } finally {
      await p.run(['stop'])
      p.dir.remove()
    }
  }, 90_000)

  it('a real app: --vm-service-port, --dds, --boot-timeout and the arguments after --', async () => {
    const p = flutterProject()
    const [vmServicePort] = await freePorts(1)
    try {
      const args = ['--device=linux', `--vm-service-port=${vmServicePort}`, '--dds', '--boot-timeout=45']
      const start = await p.run(['start', ...args, '--', '--flavor=dev', '--dart-define=GREETING=hello world'])
      expect(start.exitCode, start.stderr).toBe(0)
      const session = await restart(p)
      expect(session.startArgs).toEqual([...args, '--', '--flavor=dev', '--dart-define=GREETING=hello world'])
      const argv = session.processes.app!.argv
      expect(hasOption(argv, '-d', 'linux'), argv.join(' ')).toBe(true)
      expect(hasOption(argv, '--host-vmservice-port', String(vmServicePort)), argv.join(' ')).toBe(true)
      expect(argv).not.toContain('--no-dds')
      expect(argv.slice(-2)).toEqual(['--flavor=dev', '--dart-define=GREETING=hello world'])
      expect((await p.run(['stop'])).exitCode).toBe(0)
    } finally {
      await p.run(['stop'])
      p.dir.remove()
    }
  }, 90_000)

  it('a web app in Chromium: --cdp-port and --port (the page)', async () => {
    const p = flutterProject()
    const [cdpPort, webPort] = await freePorts(2)
    const chrome = {TAPIR_CHROME_BIN: await chromeBinary()}
    try {
      const start = await p.run(['start', '--device=chrome', `--cdp-port=${cdpPort}`, `--port=${webPort}`], chrome)
      expect(start.exitCode, start.stderr).toBe(0)
      const session = (await restart(p, chrome)) as Session & {cdpPort: number}
      expect(session.cdpPort).toBe(cdpPort)
      expect(hasOption(session.processes.app!.argv, '--web-port', String(webPort))).toBe(true)
      expect((await p.run(['tapir:snap'])).stdout).toMatch(/^- heading "Sign in"/)
      expect((await p.run(['stop'])).exitCode).toBe(0)
    } finally {
      await p.run(['stop'])
      p.dir.remove()
    }
  }, 120_000)
})

describe('tapir restart when the new start fails', () => {
  it('says the app was stopped and did not start again, and leaves no session', async () => {
    const p = flutterProject()
    const gate = join(p.dir.path, 'hold-the-build')
    try {
      // Long enough for the first start on a loaded machine, far below the default 300 s.
      const start = await p.run(['start', '--device=linux', '--boot-timeout=20'], {FAKE_FLUTTER_HANG_WHILE: gate})
      expect(start.exitCode, start.stderr).toBe(0)
      writeFileSync(gate, '')
      const began = Date.now()
      const result = await p.run(['restart'], {FAKE_FLUTTER_HANG_WHILE: gate})
      expect(result.exitCode, result.stderr).toBe(1)
      // The first start's --boot-timeout=20 bounds the second: not the default 300 s.
      expect(Date.now() - began).toBeLessThan(100_000)
      const lines = result.stderr.split('\n')
      expect(lines.at(-2)).toMatch(/^✗ The app did not start within 20 s \(--boot-timeout\); see .*\. Nothing was left running\.$/)
      expect(lines.at(-1)).toBe(
        '✗ The app was stopped, but starting it again failed (above). Nothing of it runs now; `tapir start --device=linux --boot-timeout=20` tries again.',
      )
      expect(result.stdout).toMatch(/^✓ Removed session /m)
      expect(p.session()).toBeUndefined()
      expect(p.socketFolders()).toEqual([])
      expect((await p.run(['stop'])).stdout).toMatch(/^✓ Nothing to stop/)
    } finally {
      await p.run(['stop'])
      p.dir.remove()
    }
  }, 150_000)
})
