import {readFileSync, rmSync, writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:net'
import {dirname, join} from 'node:path'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {chromeBinary} from '../helpers/chrome.js'
import {BIN} from '../helpers/cli.js'
import {alive, childrenOf, FAKE_FLUTTER_DIR, flutterProject as project, type Session} from '../helpers/flutter-project.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {McpTestClient} from '../helpers/mcp.js'

expectNoProcessLeft()

describe('tapir start --device=linux with flutter run --machine (the fake flutter first on PATH)', () => {
  const p = project()
  let session: Session
  let tree: number[] = []
  beforeAll(async () => {
    const started = await p.run(['start', '--device=linux'])
    expect(started.stderr).toContain('… Building linux application...')
    expect(started.exitCode).toBe(0)
    expect(started.stdout).toMatch(/^✓ flutter run pid=\d+ \(supervisor pid=\d+\)$/m)
    expect(started.stdout).toMatch(/^✓ vmServiceUri=ws:\/\/127\.0\.0\.1:\d+\/\*\*\*\/ws$/m)
    session = p.session()!
    const flutter = session.processes.app!.pid
    tree = [session.processes.supervisor!.pid, flutter, ...childrenOf(flutter)]
  }, 60_000)
  afterAll(async () => {
    await p.run(['stop'])
    p.dir.remove()
  })

  it('records the session: the device, no longer booting, flutter and the supervisor as processes tapir started', () => {
    expect(session).toMatchObject({device: 'linux', vmServiceUri: expect.stringMatching(/^ws:\/\//)})
    expect(session.booting).toBeUndefined()
    expect(tree).toHaveLength(3) // supervisor, flutter, and flutter's app (the sim)
    for (const pid of tree) expect(alive(pid)).toBe(true)
  })

  it('status shows the device and the pids', async () => {
    const status = await p.run(['status'])
    expect(status.exitCode).toBe(0)
    const shown = JSON.parse(status.stdout) as Session & {answering: boolean}
    expect(shown).toMatchObject({device: 'linux', answering: true, pid: session.processes.app!.pid})
    expect(shown.processes.supervisor!.pid).toBe(session.processes.supervisor!.pid)
  })

  it('tapir reload builds the widgets again from the edited source, keeping the state', async () => {
    expect((await p.run(['tapir:snap'])).stdout).toMatch(/^- heading "Sign in"/)
    const fill = await p.run(['tapir:fill', '--ref=e2', '--text=ada@example.com'])
    expect(fill.exitCode).toBe(0)
    p.setTitle('Welcome back')
    const reload = await p.run(['reload'])
    expect(reload.stdout).toMatch(/^✓ Hot reloaded through flutter run in \d+ ms \(Reloaded 1 of 1200 libraries in \d+ms\.\)$/)
    expect(reload.exitCode).toBe(0)
    const snap = (await p.run(['tapir:snap'])).stdout
    expect(snap).toMatch(/^- heading "Welcome back"/)
    expect(snap).toContain('ada@example.com')
  })

  it('tapir hot-restart gives a new isolate with fresh state, which the next verb follows', async () => {
    const restart = await p.run(['hot-restart'])
    expect(restart.stdout).toMatch(/^✓ Hot restarted through flutter run in \d+ ms \(Restarted application in \d+ms\.\)$/)
    expect(restart.exitCode).toBe(0)
    const snap = await p.run(['tapir:snap'])
    expect(snap.exitCode).toBe(0)
    expect(snap.stdout).toMatch(/^- heading "Welcome back"/)
    expect(snap.stdout).not.toContain('ada@example.com')
  })

  it('tapir:hot_reload_and_snap answers the new snapshot, a screenshot and the recent exceptions', async () => {
    p.setTitle('Hello again')
    const result = await p.run(['tapir:hot_reload_and_snap', '--json'])
    expect(result.exitCode).toBe(0)
    const json = JSON.parse(result.stdout) as Record<string, unknown>
    expect(json).toMatchObject({reloaded: true, durationMs: expect.any(Number), recentExceptions: []})
    expect(json.snapshot).toMatch(/^- heading "Hello again"/)
    expect(Buffer.from(json.screenshot as string, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]))
    const plain = await p.run(['tapir:hot_reload_and_snap', '--no-screenshot'])
    expect(plain.stdout).toMatch(/^- heading "Hello again"/)
    expect(plain.stderr).toMatch(/^✓ Hot reloaded in \d+ ms$/)
    expect(plain.stderr).not.toContain('Screenshot')
  })

  it('a compile error: reloaded false with the compiler message, exit 1, and the app keeps running', async () => {
    writeFileSync(p.source, '{"signInTitle": ')
    const result = await p.run(['tapir:hot_reload_and_snap', '--json'])
    expect(result.exitCode).toBe(1)
    const json = JSON.parse(result.stdout) as Record<string, unknown>
    expect(json).toMatchObject({reloaded: false, durationMs: expect.any(Number), recentExceptions: []})
    expect(json.error).toContain('tapir_source.json:1:1: Error:')
    expect(json).not.toHaveProperty('snapshot')
    expect(json).not.toHaveProperty('screenshot')
    const reload = await p.run(['reload'])
    expect(reload.exitCode).toBe(1)
    // flutter prints the compiler's words on stderr and replies only "DevFS synchronization failed".
    expect(reload.stderr).toMatch(/^✗ Hot reload failed: .*tapir_source\.json:1:1: Error:/)
    const restart = await p.run(['hot-restart'])
    expect(restart.exitCode).toBe(1)
    expect(restart.stderr).toMatch(/^✗ Hot restart failed: .*tapir_source\.json:1:1: Error:/)
    p.setTitle('Fixed')
    expect((await p.run(['reload'])).exitCode).toBe(0)
    expect((await p.run(['tapir:snap'])).stdout).toMatch(/^- heading "Fixed"/)
  })

  it('tapir logs prints what flutter and the app wrote, with no auth token', async () => {
    const logs = await p.run(['logs'])
    expect(logs.exitCode).toBe(0)
    expect(logs.stdout).toContain('Launching lib/main.dart on linux in debug mode...')
    expect(logs.stdout).toContain('flutter: The app has started.')
    expect(logs.stdout).toContain('Performing hot reload...')
    const token = new URL(session.vmServiceUri!).pathname.split('/')[1]!
    expect(logs.stdout).not.toContain(token)
  })

  it('tapir logs --follow prints lines as the app writes them, until interrupted', async () => {
    const follow = p.spawn(['logs', '--follow'])
    let seen = ''
    follow.stdout!.on('data', (chunk: Buffer) => (seen += chunk.toString()))
    const wait = async (check: () => boolean) => {
      for (let tries = 0; tries < 100 && !check(); tries++) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    await wait(() => seen.includes('flutter: The app has started.'))
    const before = seen.split('Performing hot reload...').length
    expect((await p.run(['reload'])).exitCode).toBe(0)
    await wait(() => seen.split('Performing hot reload...').length > before)
    expect(seen.split('Performing hot reload...').length).toBeGreaterThan(before)
    follow.kill('SIGINT')
    expect((await follow).exitCode).toBe(0)
  })

  it('tapir restart stops the app and starts it again on the same device; the verbs follow', async () => {
    const restart = await p.run(['restart'])
    expect(restart.exitCode, restart.stderr).toBe(0)
    expect(restart.stdout).toMatch(/^✓ flutter run pid=\d+ \(supervisor pid=\d+\)$/m)
    const old = tree
    session = p.session()!
    expect(session).toMatchObject({device: 'linux', vmServiceUri: expect.stringMatching(/^ws:\/\//)})
    const flutter = session.processes.app!.pid
    tree = [session.processes.supervisor!.pid, flutter, ...childrenOf(flutter)]
    expect(tree).toHaveLength(3)
    for (const pid of old) expect(alive(pid), `old pid ${pid}`).toBe(false)
    expect((await p.run(['tapir:snap'])).stdout).toMatch(/^- heading /)
  })

  it('tapir stop asks flutter to stop the app, and leaves no process of the tree alive', async () => {
    const stop = await p.run(['stop'])
    expect(stop.exitCode).toBe(0)
    expect(stop.stdout).toContain('✓ Asked flutter run to stop the app (app.stop)')
    expect(p.session()).toBeUndefined()
    for (const pid of tree) expect(alive(pid), `pid ${pid}`).toBe(false)
  })
})

describe('tapir start --device=<id>: failures exit 1 and leave nothing running', () => {
  it('no flutter: says how to install it or set TAPIR_FLUTTER_BIN', async () => {
    const p = project()
    try {
      const result = await p.run(['start', '--device=linux'], {PATH: dirname(process.execPath)})
      expect(result.stderr).toBe(
        '✗ No flutter on PATH. Install Flutter (https://docs.flutter.dev/get-started/install) and put its bin folder on PATH, or set TAPIR_FLUTTER_BIN to the flutter executable. Or try tapir with no Flutter: tapir start --device=sim runs the simulated app.',
      )
      expect(result.exitCode).toBe(1)
      expect(p.session()).toBeUndefined()
      const named = await p.run(['start', '--device=linux'], {
        PATH: dirname(process.execPath),
        TAPIR_FLUTTER_BIN: join(FAKE_FLUTTER_DIR, 'flutter'),
      })
      expect(named.exitCode).toBe(0)
      expect((await p.run(['stop'])).exitCode).toBe(0)
    } finally {
      p.dir.remove()
    }
  }, 60_000)

  it("a build failure: flutter's errors (the compiler's), the log's path, and no session", async () => {
    const p = project()
    try {
      const result = await p.run(['start', '--device=emulator-5554'], {FAKE_FLUTTER_BUILD: 'fail'})
      expect(result.exitCode).toBe(1)
      // The compiler's lines are flutter's stderr (printError), shown as they are; its status
      // lines on stdout stay in the log.
      expect(result.stderr).toContain(
        "  lib/main.dart:7:3: Error: The method 'runAp' isn't defined for the class 'MyApp'.\n    runAp(const MyApp());\n    ^^^^^\n  Error: Build process failed\n",
      )
      expect(result.stderr).not.toContain('Launching lib/main.dart')
      expect(result.stderr).toMatch(
        /^✗ The app did not start: flutter run exited with code 1\. flutter's errors are above; its whole log is .*state\.flutter\.log\. Nothing was left running\.$/m,
      )
      expect(p.session()).toBeUndefined()
      expect(p.socketFolders()).toEqual([])
      expect(readFileSync(join(p.dir.path, 'state.flutter.log'), 'utf8')).toContain('Error: Build process failed')
    } finally {
      p.dir.remove()
    }
  }, 60_000)

  it('the timeout: the session was recorded at once as booting, then removed with every process', async () => {
    const p = project()
    try {
      const running = p.run(['start', '--device=macos', '--boot-timeout=3'], {FAKE_FLUTTER_BUILD: 'hang'})
      let booting: Session | undefined
      const deadline = Date.now() + 10_000
      while (!booting && Date.now() < deadline) {
        booting = p.session()
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect(booting).toMatchObject({booting: true, vmServiceUri: null, device: 'macos'})
      // Only the supervisor while booting: flutter's launcher may still exec another program.
      expect(Object.keys(booting!.processes)).toEqual(['supervisor'])
      const supervisor = booting!.processes.supervisor!.pid
      const pids = [supervisor, ...childrenOf(supervisor)]
      const result = await running
      expect(result.stderr).toMatch(
        /^✗ The app did not start within 3 s \(--boot-timeout\); see .*state\.flutter\.log\. Nothing was left running\.$/m,
      )
      expect(result.exitCode).toBe(1)
      expect(p.session()).toBeUndefined()
      expect(p.socketFolders()).toEqual([])
      for (const pid of pids) expect(alive(pid)).toBe(false)
    } finally {
      p.dir.remove()
    }
  }, 60_000)

  it('a long --boot-timeout (past the 24.8 days a Node timer holds) waits for a slow boot', async () => {
    const p = project()
    try {
      for (const seconds of [2_147_484, 365 * 24 * 3600]) {
        const gate = join(p.dir.path, 'building')
        writeFileSync(gate, '')
        const running = p.run(['start', '--device=macos', `--boot-timeout=${seconds}`], {FAKE_FLUTTER_HANG_WHILE: gate})
        let booting: Session | undefined
        const deadline = Date.now() + 20_000
        while (!booting?.processes.supervisor && Date.now() < deadline) {
          booting = p.session()
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        expect(booting).toMatchObject({booting: true})
        rmSync(gate)
        const result = await running
        expect(result.exitCode, result.stderr).toBe(0)
        expect((await p.run(['stop'])).exitCode).toBe(0)
      }
      const beyond = await p.run(['start', '--device=macos', `--boot-timeout=${365 * 24 * 3600 + 1}`])
      expect(beyond).toMatchObject({exitCode: 1, stderr: '✗ --boot-timeout must be at most 31536000 s, a year (got 31536001).'})
    } finally {
      p.dir.remove()
    }
  }, 90_000)

  it('a start interrupted while the app boots leaves a session that stop can end, with every process', async () => {
    const p = project()
    try {
      const start = p.spawn(['start', '--device=macos'], {FAKE_FLUTTER_BUILD: 'hang'})
      let booting: Session | undefined
      const deadline = Date.now() + 10_000
      while (!(booting?.processes.supervisor && childrenOf(booting.processes.supervisor.pid).length > 0) && Date.now() < deadline) {
        booting = p.session()
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      const supervisor = booting!.processes.supervisor!.pid
      const pids = [supervisor, ...childrenOf(supervisor)]
      start.kill('SIGKILL') // as if the terminal went away: no clean-up from start itself
      await start
      const stop = await p.run(['stop'])
      expect(stop.exitCode, stop.stderr).toBe(0)
      expect(stop.stdout).toContain(`✓ Stopped supervisor pid=${supervisor}`)
      await new Promise((resolve) => setTimeout(resolve, 300))
      for (const pid of pids) expect(alive(pid), `pid ${pid}`).toBe(false)
      expect(p.session()).toBeUndefined()
      expect(p.socketFolders()).toEqual([])
    } finally {
      p.dir.remove()
    }
  }, 60_000)

  it('a port in use', async () => {
    const p = project()
    const server: Server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as {port: number}).port
    try {
      const result = await p.run(['start', '--device=linux', `--vm-service-port=${port}`])
      expect(result.stderr).toBe(`✗ Port ${port} is already in use on 127.0.0.1; pass --vm-service-port=<a free port>, or free it.`)
      expect(result.exitCode).toBe(1)
      expect(p.session()).toBeUndefined()
    } finally {
      server.close()
      p.dir.remove()
    }
  })
})

describe('tapir_hot_reload_and_snap over MCP, through the SDK client', () => {
  const p = project()
  let client: Client
  beforeAll(async () => {
    expect((await p.run(['start', '--device=linux'])).exitCode).toBe(0)
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp:serve', '--state', p.state],
      cwd: p.dir.path,
      env: {...process.env, ...p.env()} as Record<string, string>,
      stderr: 'pipe',
    })
    client = new McpTestClient()
    await client.connect(transport)
  }, 60_000)
  afterAll(async () => {
    await client.close()
    await p.run(['stop'])
    p.dir.remove()
  })

  it('answers the reference result on success, and an error result on a compile error', async () => {
    p.setTitle('From MCP')
    const ok = (await client.callTool({name: 'tapir_hot_reload_and_snap', arguments: {screenshot: false}})) as {
      isError?: boolean
      content: Array<{text: string}>
    }
    expect(ok.isError).toBeFalsy()
    const result = JSON.parse(ok.content[0]!.text) as Record<string, unknown>
    expect(result).toMatchObject({reloaded: true, recentExceptions: []})
    expect(result.snapshot).toMatch(/^- heading "From MCP"/)
    expect(result).not.toHaveProperty('screenshot')
    writeFileSync(p.source, 'not json')
    const failed = (await client.callTool({name: 'tapir_hot_reload_and_snap', arguments: {}})) as {
      isError?: boolean
      content: Array<{text: string}>
    }
    expect(failed.isError).toBe(true)
    const rejected = JSON.parse(failed.content[0]!.text) as Record<string, unknown>
    expect(rejected).toMatchObject({
      reloaded: false,
      durationMs: expect.any(Number),
      error: expect.stringContaining('Error:'),
      recentExceptions: [],
    })
    expect(rejected).not.toHaveProperty('snapshot')
  })
})

/** A free TCP port on 127.0.0.1, for a DevTools port the test names. */
function freePort(): Promise<number> {
  return new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const {port} = probe.address() as {port: number}
      probe.close(() => resolve(port))
    })
  })
}

// On the web flutter says app.started at once and app.debugPort only once the page has connected
// (resident_web_runner.dart attach()); the fake plays that order (docs/flutter-tooling.md).
describe('tapir start --device=web-server --cdp-port: the page flutter serves, shown in a Chromium tapir launched', () => {
  it('opens the served page in Chrome, waits for the debug service after app.started, answers verbs and stops everything', async () => {
    const p = project()
    const cdpPort = await freePort()
    try {
      const started = await p.run(['start', '--device=web-server', `--cdp-port=${cdpPort}`], {TAPIR_CHROME_BIN: await chromeBinary()})
      expect(started.stderr).toContain('… Compiling lib/main.dart for the Web...')
      expect(started.stderr).toMatch(/^… opening http:\/\/127\.0\.0\.1:\d+\/ in Chrome \(cdpPort=\d+\)$/m)
      expect(started.exitCode, started.stderr).toBe(0)
      expect(started.stdout).toMatch(new RegExp(`^✓ chrome pid=\\d+ \\(cdpPort=${cdpPort}\\)$`, 'm'))
      const session = p.session()! as Session & {cdpPort: number}
      expect(session).toMatchObject({device: 'web-server', cdpPort, vmServiceUri: expect.stringMatching(/^ws:\/\//)})
      expect(session.booting).toBeUndefined()
      const pids = Object.values(session.processes).map((entry) => entry.pid)
      expect(pids).toHaveLength(3)
      expect((await p.run(['tapir:snap'])).stdout).toMatch(/^- heading "Sign in"/)
      const stop = await p.run(['stop'])
      expect(stop.exitCode).toBe(0)
      for (const pid of pids) expect(alive(pid)).toBe(false)
    } finally {
      await p.run(['stop'])
      p.dir.remove()
    }
  }, 90_000)
})

describe("tapir start --device=chrome: flutter's own Chrome", () => {
  it('with --cdp-port: flutter gets --web-browser-debug-port, and evaluate, CDP resize and verbs all work', async () => {
    const p = project()
    const cdpPort = await freePort()
    try {
      // An older flutter, whose web build is not in the DDC library-bundle format.
      const started = await p.run(['start', '--device=chrome', `--cdp-port=${cdpPort}`], {
        TAPIR_CHROME_BIN: await chromeBinary(),
        FAKE_FLUTTER_LIBRARY_BUNDLE: '0',
      })
      expect(started.exitCode, started.stderr).toBe(0)
      expect(started.stdout).toContain(`✓ chrome run by flutter (cdpPort=${cdpPort})`)
      const session = p.session()! as Session & {cdpPort: number; flutterArgs: string[]}
      expect(session).toMatchObject({device: 'chrome', cdpPort, vmServiceUri: expect.stringMatching(/^ws:\/\//)})
      // flutter's browser is flutter's: tapir records the supervisor and flutter only.
      expect(Object.keys(session.processes).sort()).toEqual(['app', 'supervisor'])
      const devtools = (await (await fetch(`http://127.0.0.1:${cdpPort}/json/version`)).json()) as {Browser?: string}
      expect(devtools.Browser).toMatch(/Chrom/)
      expect((await p.run(['tapir:snap'])).stdout).toMatch(/^- heading "Sign in"/)
      expect(await p.run(['tapir:evaluate', '--expression=1 + 2'])).toMatchObject({exitCode: 0, stdout: '3'})
      const resize = await p.run(['tapir:resize', '--width=375', '--height=812'])
      expect(resize.exitCode, resize.stderr).toBe(0)
      // In that format a web reload is a restart (resident_web_runner.dart restart()): tapir says so.
      expect((await p.run(['tapir:fill', '--ref=e2', '--text=ada@example.com'])).exitCode).toBe(0)
      p.setTitle('Welcome back')
      const reload = await p.run(['reload'])
      expect(reload.exitCode, reload.stderr).toBe(0)
      expect(reload.stdout).toMatch(
        /^✓ Hot reloaded through flutter run in \d+ ms; flutter ran it as a full restart, so the app's state was reset$/,
      )
      const snap = await p.run(['tapir:snap'])
      expect(snap.stdout).toMatch(/^- heading "Welcome back"/)
      expect(snap.stdout).not.toContain('ada@example.com')
      p.setTitle('Hello again')
      const both = await p.run(['tapir:hot_reload_and_snap', '--no-screenshot'])
      expect(both.exitCode, both.stderr).toBe(0)
      expect(both.stdout).toMatch(/^- heading "Hello again"/)
      expect(both.stderr).toContain("⚠ flutter ran the reload as a full restart: the app's state was reset")
      writeFileSync(p.source, '{"signInTitle": ')
      const broken = await p.run(['reload'])
      expect(broken.exitCode).toBe(1)
      expect(broken.stderr).toMatch(/^✗ Hot reload failed: .*tapir_source\.json:1:1: Error:/)
      p.setTitle('Fixed')
      const restart = await p.run(['hot-restart'])
      expect(restart.stdout).toMatch(/^✓ Hot restarted through flutter run in \d+ ms$/)
      expect((await p.run(['tapir:snap'])).stdout).toMatch(/^- heading "Fixed"/)
      expect((await p.run(['stop'])).exitCode).toBe(0)
      await expect(fetch(`http://127.0.0.1:${cdpPort}/json/version`)).rejects.toThrow()
    } finally {
      await p.run(['stop'])
      p.dir.remove()
    }
  }, 90_000)

  it('without --cdp-port: flutter picks the port, and the start still waits for app.debugPort after app.started', async () => {
    const p = project()
    try {
      const started = await p.run(['start', '--device=chrome'], {TAPIR_CHROME_BIN: await chromeBinary()})
      expect(started.exitCode, started.stderr).toBe(0)
      expect(started.stdout).toMatch(/^✓ vmServiceUri=ws:\/\/127\.0\.0\.1:\d+\/\*\*\*\/ws$/m)
      expect(p.session()).toMatchObject({device: 'chrome', cdpPort: null})
      expect((await p.run(['tapir:snap'])).stdout).toMatch(/^- heading "Sign in"/)
      expect((await p.run(['stop'])).exitCode).toBe(0)
    } finally {
      await p.run(['stop'])
      p.dir.remove()
    }
  }, 90_000)

  it('a reload that reaches no browser is not "reloaded": exit 3, saying what flutter said', async () => {
    const p = project()
    const cdpPort = await freePort()
    try {
      const env = {TAPIR_CHROME_BIN: await chromeBinary(), FAKE_FLUTTER_NO_CLIENT: '1'}
      const started = await p.run(['start', '--device=web-server', `--cdp-port=${cdpPort}`], env)
      expect(started.exitCode, started.stderr).toBe(0)
      const reload = await p.run(['reload'])
      expect(reload.stderr).toBe(
        '✗ flutter recompiled the app, but no browser is connected to it, so nothing was reloaded (flutter: "Recompile complete. No client connected."). Open the app\'s page again, then retry.',
      )
      expect(reload.exitCode).toBe(3)
    } finally {
      await p.run(['stop'])
      p.dir.remove()
    }
  }, 90_000)

  it('a page that never connects: the boot timeout says flutter started the app but gave no VM Service address', async () => {
    const p = project()
    try {
      // web-server with no browser: flutter says app.started, and app.debugPort never comes.
      const result = await p.run(['start', '--device=web-server', '--boot-timeout=4'])
      expect(result.stderr).toMatch(
        /^✗ flutter run started the app but announced no VM Service address within 4 s \(--boot-timeout\): on the web it comes once the page has loaded in a browser and connected to the debug service; see .*state\.flutter\.log\. Nothing was left running\.$/m,
      )
      expect(result.exitCode).toBe(1)
      expect(p.session()).toBeUndefined()
    } finally {
      p.dir.remove()
    }
  }, 60_000)
})
