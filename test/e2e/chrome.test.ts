import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {createConnection, createServer, type Socket} from 'node:net'
import {join} from 'node:path'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {execa} from 'execa'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {chromeBinary} from '../helpers/chrome.js'
import {BIN, cliEnv, tapir, tempDir, type CliResult} from '../helpers/cli.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {McpTestClient} from '../helpers/mcp.js'
import {eventually, freePort, minimizeWindow, pageReport, pngSize, processesWith, windowBounds} from '../helpers/page-probe.js'
import {canUnshare, inPidNamespace} from '../helpers/pid-namespace.js'
import {SIGN_IN_STEPS} from '../helpers/sim.js'

expectNoProcessLeft()

const WIDE_ONLY = 'Select a monitor to see its details'

/** The Alerts switch sits 84 px in from the right edge: its tapOwner x tells the width the app laid out at. */
const switchLeft = (snapshot: string): number => Number(/tapOwner: \{"x":([\d.]+)/.exec(snapshot)?.[1])

describe('the simulated app as a web page in real headless Chromium (tapir start --cdp-port)', () => {
  const scratch = tempDir('tapir-chrome-')
  let env: Record<string, string>
  let cdpPort: number
  let session: Record<string, unknown>
  let statePath: string
  const run = (args: string[]): Promise<CliResult> => tapir(args, {cwd: scratch.path, home: scratch.path, env})
  const snap = async (): Promise<string> => {
    const result = await run(['tapir:snap'])
    expect(result.exitCode, result.stderr).toBe(0)
    return result.stdout
  }
  /** The app's layout once it has taken the page's latest report. */
  const layoutWhere = (check: (snapshot: string) => boolean) => eventually(snap, check)

  beforeAll(async () => {
    env = {TAPIR_CHROME_BIN: await chromeBinary()}
    cdpPort = await freePort()
    const start = await run(['start', '--device=sim', `--cdp-port=${cdpPort}`])
    expect(start.exitCode, start.stderr).toBe(0)
    expect(start.stdout).toMatch(new RegExp(`^✓ chrome pid=\\d+ \\(cdpPort=${cdpPort}\\)$`, 'm'))
    statePath = /^✓ state=(.*)$/m.exec(start.stdout)![1]!
    session = JSON.parse(readFileSync(statePath, 'utf8'))
    const signIn = await run(['tapir:run', ...SIGN_IN_STEPS])
    expect(signIn.exitCode, signIn.stdout + signIn.stderr).toBe(0)
  }, 90_000)

  afterAll(async () => {
    await run(['stop'])
    // Nothing this file started may outlive it: no browser on its port, no tapir on its folder.
    expect(
      await eventually(
        async () => processesWith(`--remote-debugging-port=${cdpPort}`),
        (pids) => pids.length === 0,
      ),
    ).toEqual([])
    expect(processesWith(scratch.path)).toEqual([])
    scratch.remove()
  })

  it('records the browser it launched: pid, exact argv, throwaway profile, the page on the web port', async () => {
    expect(session.cdpPort).toBe(cdpPort)
    expect(session.chromePid).toEqual(expect.any(Number))
    const chrome = (session.processes as {chrome: {pid: number; argv: string[]}}).chrome
    expect(chrome.pid).toBe(session.chromePid)
    const argv = chrome.argv
    expect(argv[0]).toBe(env.TAPIR_CHROME_BIN)
    expect(argv).toEqual(
      expect.arrayContaining([
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        `--remote-debugging-port=${cdpPort}`,
        `--user-data-dir=${session.tmpProfileDir}`,
      ]),
    )
    expect(argv.at(-1)).toBe(`http://127.0.0.1:${session.webPort}/`)
    expect(existsSync(session.tmpProfileDir as string)).toBe(true)
  })

  it("doctor checks Chrome too: its DevTools port answers and the app's page on the web port is visible", async () => {
    const result = await run(['doctor'])
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.stdout).toMatch(
      new RegExp(
        `^✓ chrome: CDP port ${cdpPort} answers; the app's page is visible \\(http://127\\.0\\.0\\.1:${session.webPort}/\\)$`,
        'm',
      ),
    )
    expect(result.stdout).toMatch(/^✓ processes: running: app pid=\d+, chrome pid=\d+$/m)
  })

  it('shows the app with real text, laid out wide (a rail, list and detail side by side) in the 1440 px window', async () => {
    const page = await eventually(
      () => pageReport(cdpPort),
      (report) => report.text.includes('20 monitors'),
    )
    expect(page).toMatchObject({width: 1440, dpr: 1, touchPoints: 0})
    expect(page.text).toContain('Alerts enabled')
    const snapshot = await layoutWhere((text) => text.includes(WIDE_ONLY))
    expect(snapshot).toContain(`- text "${WIDE_ONLY}"`)
    expect(switchLeft(snapshot)).toBe(80 + 400 - 84)
  })

  it('resize --hold keeps 375 px, DPR 3 and touch while it runs (phone layout), and gives the page back on SIGINT', async () => {
    const holder = execa(
      process.execPath,
      [BIN, 'tapir:resize', '--width=375', '--height=812', '--dpr=3', '--mobile', '--touch', '--hold'],
      {
        cwd: scratch.path,
        env: cliEnv(env, scratch.path),
        reject: false,
      },
    )
    let stderr = ''
    await new Promise<void>((resolve, reject) => {
      holder.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk
        if (stderr.includes('Holding the override; Ctrl-C or closing Chrome ends it.')) resolve()
      })
      holder.once('exit', () => reject(new Error(`the holder exited early: ${stderr}`)))
    })
    expect(stderr).toContain('✓ Viewport override sent: 375x812 @ 3.0x (mobile=true touch=true).')
    const held = await eventually(
      () => pageReport(cdpPort),
      (report) => report.width === 375,
    )
    expect(held).toMatchObject({width: 375, height: 812, dpr: 3})
    expect(held.touchPoints).toBeGreaterThan(0)
    const phone = await layoutWhere((text) => !text.includes(WIDE_ONLY))
    expect(switchLeft(phone)).toBe(375 - 84)
    expect(phone.trimEnd().split('\n').slice(-2)).toEqual([
      expect.stringMatching(/^- button "Monitors"/),
      expect.stringMatching(/^- button "Settings"/),
    ])

    holder.kill('SIGINT')
    const ended = await holder
    expect(ended.exitCode).toBe(0)
    expect(ended.stdout).toBe('✓ Released the 375x812 @ 3.0x (mobile=true touch=true) override (interrupted).')
    const after = await eventually(
      () => pageReport(cdpPort),
      (report) => report.width === 1440,
    )
    expect(after).toMatchObject({width: 1440, dpr: 1, touchPoints: 0})
    expect(await layoutWhere((text) => text.includes(WIDE_ONLY))).toContain(WIDE_ONLY)
  })

  /** Starts a holder in the background, waits for it to hold, lets `during` look at the page, then
   *  sends it `signal`; the whole run sits in a throwaway PID namespace. */
  async function holdThenSignal(signal: 'HUP' | 'TERM', during: () => Promise<void>) {
    const log = join(scratch.path, `hold-${signal}.log`)
    const go = join(scratch.path, `go-${signal}`)
    const script = [
      `cd "${scratch.path}"`,
      `"${process.execPath}" "${BIN}" tapir:resize --width=375 --height=812 --dpr=3 --hold >"${log}.out" 2>"${log}" & H=$!`,
      `i=0; until [ -e "${go}" ] || [ $i -gt 400 ]; do sleep 0.05; i=$((i+1)); done`,
      `kill -${signal} $H; wait $H; echo "exit=$?"`,
      `cat "${log}.out"`,
    ].join('\n')
    const ran = inPidNamespace(script, {...env, HOME: scratch.path, NODE_ENV: 'production', PATH: process.env.PATH!})
    const holding = await eventually(
      async () => (existsSync(log) ? readFileSync(log, 'utf8') : ''),
      (text) => text.includes('Holding the override'),
      15_000,
    )
    try {
      expect(holding).toContain('Holding the override')
      await during()
    } finally {
      writeFileSync(go, '')
    }
    return ran
  }

  it.skipIf(!canUnshare).each(['HUP', 'TERM'] as const)(
    'resize --hold ended by SIG%s (the terminal closed, or kill) releases the override like Ctrl-C does',
    async (signal) => {
      const result = await holdThenSignal(signal, async () => {
        const held = await eventually(
          () => pageReport(cdpPort),
          (report) => report.width === 375,
        )
        expect(held).toMatchObject({width: 375, dpr: 3})
      })
      expect(result.stdout.split('\n')).toEqual([
        'exit=0',
        '✓ Released the 375x812 @ 3.0x (mobile=false touch=false) override (interrupted).',
      ])
      expect(
        await eventually(
          () => pageReport(cdpPort),
          (report) => report.width === 1440,
        ),
      ).toMatchObject({width: 1440, dpr: 1})
    },
  )

  const holders: Array<ReturnType<typeof execa>> = []
  afterEach(async () => {
    // A failed check leaves no holder behind to hold the page for the tests after it.
    for (const holder of holders.splice(0)) {
      holder.kill('SIGINT')
      await holder
    }
  })
  /** A `resize --hold` in the background, once it says it holds. */
  async function holding(args: string[]) {
    const holder = execa(process.execPath, [BIN, 'tapir:resize', ...args, '--hold'], {
      cwd: scratch.path,
      env: cliEnv(env, scratch.path),
      reject: false,
    })
    let stderr = ''
    await new Promise<void>((resolve, reject) => {
      holder.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk
        if (stderr.includes('Holding the override')) resolve()
      })
      holder.once('exit', () => reject(new Error(`the holder exited early: ${stderr}`)))
    })
    holders.push(holder)
    return {holder} // not the process itself: awaiting a thenable would wait for its exit
  }
  const PHONE = ['--width=375', '--height=812', '--dpr=3', '--mobile', '--touch']
  const TABLET = ['--width=800', '--height=600']
  type Page = Awaited<ReturnType<typeof pageReport>>
  const isPhone = (report: Page) => report.width === 375 && report.height === 812 && report.dpr === 3 && report.touchPoints > 0
  const isTablet = (report: Page) => report.width === 800 && report.height === 600 && report.dpr === 1 && report.touchPoints === 0
  const isOwn = (report: Page) => report.width === 1440 && report.dpr === 1 && report.touchPoints === 0
  /** The page as it settles once a holder came or went: holders hand over within a moment. */
  const settled = (check: (report: Page) => boolean) => eventually(() => pageReport(cdpPort), check, 15_000)
  const released = async ({holder}: Awaited<ReturnType<typeof holding>>, size: string) => {
    holder.kill('SIGINT')
    const ended = await holder
    expect(ended.exitCode, String(ended.stderr)).toBe(0)
    expect(ended.stdout).toBe(`✓ Released the ${size} override (interrupted).`)
    expect(ended.stderr).not.toContain('⚠')
  }
  /** The holders' stack beside the session goes with the last of them, and so does its lock. */
  const holdFilesLeft = () => [`${statePath}.holds`, `${statePath}.holds.lock`].filter((path) => existsSync(path))

  it('two resize --hold on one page: the second takes over; released, it gives the page back to the first; then the page is its own (docs/flutter-web.md)', async () => {
    const first = await holding(PHONE)
    expect(await settled(isPhone)).toMatchObject({width: 375, height: 812, dpr: 3})
    const second = await holding(TABLET)
    expect(await settled(isTablet)).toMatchObject({width: 800, height: 600, dpr: 1, touchPoints: 0})
    await released(second, '800x600 @ 1.0x (mobile=false touch=false)')
    expect(await settled(isPhone)).toMatchObject({width: 375, height: 812, dpr: 3})
    expect(isPhone(await pageReport(cdpPort))).toBe(true)
    await released(first, '375x812 @ 3.0x (mobile=true touch=true)')
    expect(await settled(isOwn)).toMatchObject({width: 1440, dpr: 1, touchPoints: 0})
    expect(holdFilesLeft()).toEqual([])
  })

  it('two resize --hold on one page released oldest first: the newest keeps its size, and gives the page back when it ends', async () => {
    const first = await holding(PHONE)
    expect(await settled(isPhone)).toMatchObject({width: 375})
    const second = await holding(TABLET)
    expect(await settled(isTablet)).toMatchObject({width: 800, height: 600})
    await released(first, '375x812 @ 3.0x (mobile=true touch=true)')
    // The first's session ending cleared the page's override: the second applies its own again.
    expect(await settled(isTablet)).toMatchObject({width: 800, height: 600, dpr: 1, touchPoints: 0})
    expect(isTablet(await pageReport(cdpPort))).toBe(true)
    await released(second, '800x600 @ 1.0x (mobile=false touch=false)')
    expect(await settled(isOwn)).toMatchObject({width: 1440, dpr: 1, touchPoints: 0})
    expect(holdFilesLeft()).toEqual([])
  })

  it('a resize --hold killed outright (SIGKILL) is passed over: the holder before it applies its own again', async () => {
    const first = await holding(PHONE)
    expect(await settled(isPhone)).toMatchObject({width: 375})
    const second = await holding(TABLET)
    expect(await settled(isTablet)).toMatchObject({width: 800})
    second.holder.kill('SIGKILL')
    expect((await second.holder).signal).toBe('SIGKILL')
    expect(await settled(isPhone)).toMatchObject({width: 375, height: 812, dpr: 3})
    await released(first, '375x812 @ 3.0x (mobile=true touch=true)')
    expect(await settled(isOwn)).toMatchObject({width: 1440, dpr: 1, touchPoints: 0})
    expect(holdFilesLeft()).toEqual([])
  })

  it('the last resize --hold killed outright (SIGKILL) leaves its override on the page; the next resize takes it off', async () => {
    const only = await holding(PHONE)
    expect(await settled(isPhone)).toMatchObject({width: 375})
    only.holder.kill('SIGKILL')
    expect((await only.holder).signal).toBe('SIGKILL')
    // killed: the clean-up after each test has nothing of it to end
    holders.length = 0
    // What Chrome does with the override of a session whose client died (docs/viewport-holds.md):
    // seen, not assumed, so the test holds whichever it is.
    const after = await pageReport(cdpPort)
    expect(isPhone(after) || isOwn(after), JSON.stringify(after)).toBe(true)
    const reset = await run(['tapir:resize', '--reset'])
    expect(reset).toMatchObject({exitCode: 0, stdout: '✓ Viewport reset to defaults.'})
    expect(await settled(isOwn)).toMatchObject({width: 1440, dpr: 1, touchPoints: 0})
    expect(holdFilesLeft()).toEqual([])
  })

  it('a dead holder whose session Chrome still keeps (as Chromium 153 did): the next verb of any kind takes its override off', async () => {
    // Chrome disposes of a DevTools session once it sees the client's WebSocket close. A relay
    // that never passes a client's end on keeps the session of a killed holder open, its
    // override in force, as a Chromium that has not noticed the death does.
    const relay = await keptSessionsRelay(cdpPort)
    const own = readFileSync(statePath, 'utf8')
    writeFileSync(statePath, JSON.stringify({...JSON.parse(own), cdpPort: relay.port}))
    try {
      const only = await holding(PHONE)
      expect(await settled(isPhone)).toMatchObject({width: 375})
      only.holder.kill('SIGKILL')
      expect((await only.holder).signal).toBe('SIGKILL')
      holders.length = 0
      await new Promise((resolve) => setTimeout(resolve, 1000))
      expect(isPhone(await pageReport(cdpPort))).toBe(true)
      expect(holdFilesLeft()).toEqual([`${statePath}.holds`])
      // get_routes asks the app only, never Chrome: clearing is every verb's first step.
      const routes = await run(['tapir:get_routes'])
      expect(routes.exitCode, routes.stderr).toBe(0)
      expect(await settled(isOwn)).toMatchObject({width: 1440, dpr: 1, touchPoints: 0})
      expect(holdFilesLeft()).toEqual([])
    } finally {
      writeFileSync(statePath, own)
      await relay.close()
    }
  })

  it('a holder killed outright whose session Chrome ends only after the holder beneath took over: that one applies its own again', async () => {
    // Under load Chrome may hear of the killed holder's end after the holder beneath saw it gone
    // and applied its own; that session's end then clears the page's override, its own included.
    const relay = await keptSessionsRelay(cdpPort, 1500)
    const own = readFileSync(statePath, 'utf8')
    writeFileSync(statePath, JSON.stringify({...JSON.parse(own), cdpPort: relay.port}))
    try {
      const first = await holding(PHONE)
      expect(await settled(isPhone)).toMatchObject({width: 375})
      const second = await holding(TABLET)
      expect(await settled(isTablet)).toMatchObject({width: 800})
      second.holder.kill('SIGKILL')
      expect((await second.holder).signal).toBe('SIGKILL')
      // Past the late end of the killed holder's session.
      await new Promise((resolve) => setTimeout(resolve, 2500))
      expect(await settled(isPhone)).toMatchObject({width: 375, height: 812, dpr: 3})
      await released(first, '375x812 @ 3.0x (mobile=true touch=true)')
      expect(await settled(isOwn)).toMatchObject({width: 1440, dpr: 1, touchPoints: 0})
    } finally {
      writeFileSync(statePath, own)
      await relay.close()
    }
  })

  it('resize without --hold warns that Chrome drops the override, and leaves the page as it was', async () => {
    const result = await run(['tapir:resize', '--width=375', '--height=812'])
    expect(result).toMatchObject({exitCode: 0, stdout: '✓ Viewport override sent: 375x812 @ 1.0x (mobile=false touch=false).'})
    expect(result.stderr).toBe(
      '⚠ Chrome drops this override when the command exits. Pass --hold (in the background) to keep it while you drive the app.',
    )
    expect((await pageReport(cdpPort)).width).toBe(1440)
  })

  it('device --preset=pixel-8 sizes the window, so the app lays out for 412 px; --reset restores the 1440x900 window', async () => {
    const applied = await run(['tapir:device', '--preset=Pixel_8'])
    expect(applied).toMatchObject({exitCode: 0, stdout: '✓ Emulating Pixel_8: 412x915 @ 2.625x.', stderr: ''})
    expect(await windowBounds(cdpPort)).toMatchObject({width: 412, height: 915 + 130})
    expect(
      (
        await eventually(
          () => pageReport(cdpPort),
          (report) => report.width === 412,
        )
      ).width,
    ).toBe(412)
    const phone = await layoutWhere((text) => switchLeft(text) === 412 - 84)
    expect(switchLeft(phone)).toBe(412 - 84)
    expect(phone).not.toContain(WIDE_ONLY)

    const reset = await run(['tapir:device', '--reset'])
    expect(reset).toMatchObject({exitCode: 0, stdout: '✓ Viewport emulation reset to defaults.'})
    expect(await windowBounds(cdpPort)).toMatchObject({width: 1440, height: 900})
    expect(await layoutWhere((text) => text.includes(WIDE_ONLY))).toContain(WIDE_ONLY)
  })

  it('screenshot --ref writes a PNG the size of the widget, captured through CDP; a full capture is the whole page', async () => {
    const ref = /- button "Export" \[ref=(e\d+)\]/.exec(await snap())![1]!
    const clipped = await run(['tapir:screenshot', `--output=export.png`, `--ref=${ref}`, '--json'])
    expect(clipped.exitCode, clipped.stderr).toBe(0)
    expect(JSON.parse(clipped.stdout)).toMatchObject({via: 'cdp', format: 'png', width: 88, height: 40})
    expect(pngSize(readFileSync(join(scratch.path, 'export.png')))).toEqual({width: 88, height: 40})

    const full = await run(['tapir:screenshot', '--output=full.png'])
    expect(full.exitCode, full.stderr).toBe(0)
    expect(full.stdout).toMatch(/^✓ Wrote \d+ bytes \([\d.]+ KB, png\) to .*full\.png$/)
    // The whole page as the page itself measures it: 1440×900 in a headless shell, less the
    // window's own bars in a full Chromium (Debian's draws 1440×757 in a 1440×900 window).
    const page = await pageReport(cdpPort)
    expect(page.width).toBe(1440)
    expect(pngSize(readFileSync(join(scratch.path, 'full.png')))).toEqual({
      width: Math.round(page.width * page.dpr),
      height: Math.round(page.height * page.dpr),
    })
  })

  it('screenshot --ref refuses a ref the app has no rect for, rather than capturing the whole frame', async () => {
    const result = await run(['tapir:screenshot', '--output=none.png', '--ref=e999'])
    expect(result.exitCode).toBe(3)
    expect(existsSync(join(scratch.path, 'none.png'))).toBe(false)
  })

  /** The MCP server over stdio, as an agent starts it, on this test's session. */
  const mcpClient = async (...flags: string[]) => {
    const client = new McpTestClient()
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp:serve', ...flags],
        cwd: scratch.path,
        env: {...process.env, HOME: scratch.path, NODE_ENV: 'production', ...env} as Record<string, string>,
        stderr: 'pipe',
      }),
    )
    return client
  }

  it('over MCP, resize_viewport and device_profile answer as the reference says; the override ends with the call', async () => {
    const client = await mcpClient()
    try {
      const text = async (name: string, args: Record<string, unknown>) => {
        const result = (await client.callTool({name, arguments: args})) as {isError?: boolean; content: Array<{text: string}>}
        expect(result.isError, result.content[0]!.text).toBeFalsy()
        return result.content[0]!.text
      }
      expect((await text('tapir_resize_viewport', {width: 375, height: 812, dpr: 3.0, mobile: true, touch: true})).split('\n')).toEqual([
        'Viewport override sent: 375x812 @ 3.0x (mobile=true touch=true).',
        "The override lasts only as long as this call: Chrome dropped it when the call returned. For a viewport that lasts, hold it from a shell with the CLI's resize and its hold flag, or emulate a device with tapir_device_profile, whose window size stays.",
      ])
      expect(await pageReport(cdpPort)).toMatchObject({width: 1440, dpr: 1})
      expect(await text('tapir_resize_viewport', {reset: true, width: 1})).toBe('Viewport reset to defaults.')
      expect(JSON.parse(await text('tapir_device_profile', {preset: 'iphone-x'}))).toEqual({
        applied: 'iphone-x',
        viewport: {width: 375, height: 812, dpr: 3, mobile: true, touch: true},
      })
      expect(await windowBounds(cdpPort)).toMatchObject({width: 375})
      expect(JSON.parse(await text('tapir_device_profile', {reset: true}))).toEqual({reset: true})
      expect(await windowBounds(cdpPort)).toMatchObject({width: 1440, height: 900})
      const shot = JSON.parse(await text('tapir_screenshot', {format: 'png'})) as {format: string; width: number}
      expect(shot.format).toBe('png') // in-app, as the reference says: not through CDP
    } finally {
      await client.close()
    }
  })

  it('over MCP with --catalogue=dusk, dusk_resize_viewport and dusk_device_profile run the same code, in 0.0.1 shapes', async () => {
    const client = await mcpClient('--catalogue=dusk')
    try {
      const json = async (name: string, args: Record<string, unknown>) => {
        const result = (await client.callTool({name, arguments: args})) as {isError?: boolean; content: Array<{text: string}>}
        expect(result.isError, result.content[0]!.text).toBeFalsy()
        return JSON.parse(result.content[0]!.text) as Record<string, unknown>
      }
      expect(await json('dusk_resize_viewport', {width: 375, height: 812, deviceScaleFactor: 3.0, mobile: true, touch: true})).toEqual({
        viewport: {width: 375, height: 812, deviceScaleFactor: 3, mobile: true, touch: true},
        note: 'Chrome dropped the override when this call returned; dusk_device_profile emulates a device whose window size stays.',
      })
      expect(await pageReport(cdpPort)).toMatchObject({width: 1440, dpr: 1})
      expect(await json('dusk_resize_viewport', {width: 1, height: 1, reset: true})).toEqual({reset: true})
      expect(await json('dusk_device_profile', {preset: 'iphone-x'})).toEqual({
        applied: 'iphone-x',
        viewport: {width: 375, height: 812, dpr: 3, mobile: true, touch: true},
      })
      expect(await windowBounds(cdpPort)).toMatchObject({width: 375})
      expect(await json('dusk_device_profile', {reset: true})).toEqual({reset: true})
      expect(await windowBounds(cdpPort)).toMatchObject({width: 1440, height: 900})
    } finally {
      await client.close()
    }
  })

  it('perf_run on chrome holds the scenario viewport through CDP for the run, brings the tab forward, and gives the page back after', async () => {
    const scenario = join(scratch.path, 'web.yaml')
    writeFileSync(
      scenario,
      'name: web\nplatforms: [chrome]\nrepeat: 1\nviewport: {width: 375, height: 812}\nsteps:\n  - wait: 2000\n  - tap: {target: {role: button, name: Settings}}\n',
    )
    const running = run(['tapir:perf_run', scenario, '--platform=chrome', `--out=${join(scratch.path, 'perf')}`])
    const during = await eventually(
      () => pageReport(cdpPort),
      (report) => report.width === 375,
      15_000,
    )
    const result = await running
    expect(result.exitCode, result.stderr).toBe(0)
    expect(during.width).toBe(375)
    expect(result.stderr).toMatch(/^repeat 1\/1 \(attribution\) \.\.\. \d+ painted frames$/m)
    expect(JSON.parse(readFileSync(join(scratch.path, 'perf', 'web-run.json'), 'utf8')).scenario).toMatchObject({
      name: 'web',
      viewport: {width: 375, height: 812},
    })
    expect(
      (
        await eventually(
          () => pageReport(cdpPort),
          (report) => report.width === 1440,
        )
      ).width,
    ).toBe(1440)
  })

  it('evaluates on the web page: DWDS behind DDS compiles the expression and runs it in the page', async () => {
    expect(await run(['tapir:evaluate', '--expression=Auth.user?.email'])).toMatchObject({
      exitCode: 0,
      stdout: 'ada@example.com',
      stderr: '',
    })
    expect(await run(['tapir:evaluate', '--expression=nope'])).toMatchObject({
      exitCode: 3,
      stderr: "✗ The expression does not compile: Undefined name 'nope'.",
    })
  })

  it('a hidden tab sets the app hidden: the frames-off banner (web); perf_run brings the tab to the front before its repeat', async () => {
    await minimizeWindow(cdpPort)
    expect(
      (
        await eventually(
          () => pageReport(cdpPort),
          (report) => report.visibility === 'hidden',
        )
      ).visibility,
    ).toBe('hidden')
    const hidden = await eventually(
      () => run(['tapir:snap', '--json']),
      (result) => result.stderr !== '',
    )
    expect(hidden.stderr).toMatch(/^⚠ The app is not producing frames \(lifecycle: hidden\)/)
    const answer = JSON.parse(hidden.stdout)
    expect(answer.warnings).toMatchObject({framesEnabled: false, lifecycleState: 'hidden', platform: 'web'})
    expect(answer).not.toHaveProperty('framesForced')

    const scenario = join(scratch.path, 'front.yaml')
    writeFileSync(scenario, 'name: front\nplatforms: [chrome]\nrepeat: 1\nsteps:\n  - tap: {target: {role: button, name: Settings}}\n')
    const result = await run(['tapir:perf_run', scenario, '--platform=chrome', `--out=${join(scratch.path, 'perf')}`])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/^repeat 1\/1 \(attribution\) \.\.\. \d+ painted frames$/m)
    expect((await pageReport(cdpPort)).visibility).toBe('visible')
    const shown = await run(['tapir:snap', '--interactiveOnly'])
    expect(shown.exitCode).toBe(0)
    expect(shown.stderr).not.toContain('not producing frames')
  })

  it("reloads and restarts the web sim it started: a restart recompiles through flutter run's reloadSources, through DDS", async () => {
    expect(await snap()).not.toContain('"Sign in"')
    const reload = await run(['reload'])
    expect(reload).toMatchObject({exitCode: 0, stderr: ''})
    expect(reload.stdout).toMatch(/^✓ Hot reloaded through vm service in \d+ ms \(Reloaded\)$/)
    expect(await snap()).not.toContain('"Sign in"') // a hot reload keeps the state

    const reloadAndSnap = await run(['tapir:hot_reload_and_snap', '--no-screenshot'])
    expect(reloadAndSnap.exitCode, reloadAndSnap.stderr).toBe(0)
    expect(reloadAndSnap.stderr).toMatch(/^✓ Hot reloaded in \d+ ms$/m)
    expect(reloadAndSnap.stdout).toMatch(/^- heading "Settings" \[ref=e\d+\]$/m)

    const restart = await run(['hot-restart'])
    expect(restart).toMatchObject({exitCode: 0, stderr: ''})
    // On the web, flutter_tools registers only reloadSources: tapir recompiles through it (docs/flutter-tooling.md).
    expect(restart.stdout).toMatch(
      /^✓ Hot restarted through vm service in \d+ ms \(Recompiled through flutter's reloadSources, then restarted\)$/,
    )
    expect(await layoutWhere((snapshot) => snapshot.includes('heading "Sign in"'))).toContain('textbox "Email"')

    // docs/performance.md's scenario shape: every repeat starts from a hot restart, on chrome too.
    const scenario = join(scratch.path, 'restarting.yaml')
    writeFileSync(
      scenario,
      [
        'name: restarting',
        'platforms: [chrome]',
        'repeat: 2',
        'setup:',
        '  - hot_restart',
        '  - fill: {target: {key: email}, text: ada@example.com}',
        '  - fill: {target: {key: password}, text: hunter22}',
        '  - tap: {target: {key: signIn}}',
        '  - wait_for_text: Monitors',
        'steps:',
        '  - tap: {target: {role: button, name: Settings}}',
        '',
      ].join('\n'),
    )
    const perf = await run(['tapir:perf_run', scenario, '--platform=chrome', `--out=${join(scratch.path, 'perf')}`])
    expect(perf.exitCode, perf.stderr).toBe(0)
    expect(perf.stderr).toMatch(/^repeat 2\/2 \(attribution\) \.\.\. \d+ painted frames$/m)
    expect(JSON.parse(readFileSync(join(scratch.path, 'perf', 'restarting-run.json'), 'utf8')).env).toMatchObject({
      restartMode: 'hot_restart',
    })
  })

  it('tapir stop ends Chromium with the app, while a holder is running: it sees Chrome go and exits 0; no process and no profile is left', async () => {
    const profile = session.tmpProfileDir as string
    expect(processesWith(`--user-data-dir=${profile}`).length).toBeGreaterThan(0)
    const holder = execa(process.execPath, [BIN, 'tapir:resize', '--width=390', '--height=844', '--hold'], {
      cwd: scratch.path,
      env: cliEnv(env, scratch.path),
      reject: false,
    })
    await new Promise<void>((resolve) => holder.stderr!.on('data', (chunk: Buffer) => String(chunk).includes('Holding') && resolve()))
    const stop = await run(['stop'])
    expect(stop.exitCode, stop.stderr).toBe(0)
    expect(stop.stdout).toContain(`✓ Stopped chrome pid=${session.chromePid}`)
    const ended = await holder
    expect(ended).toMatchObject({
      exitCode: 0,
      stdout: '✓ Released the 390x844 @ 1.0x (mobile=false touch=false) override (Chrome went away).',
    })
    expect(
      await eventually(
        async () => processesWith(`--user-data-dir=${profile}`),
        (pids) => pids.length === 0,
      ),
    ).toEqual([])
    expect(existsSync(profile)).toBe(false)
  })
})

/** A TCP relay to Chrome's DevTools port that never passes a client's end on (or passes it on
 *  late, with endAfterMs). A client that
 *  says goodbye does so in a WebSocket close frame, which goes through, and Chrome ends the
 *  session; one killed outright just goes, and Chrome keeps its session. */
async function keptSessionsRelay(target: number, endAfterMs?: number): Promise<{port: number; close(): Promise<void>}> {
  const sockets: Socket[] = []
  const server = createServer((client) => {
    const upstream = createConnection({host: '127.0.0.1', port: target})
    sockets.push(client, upstream)
    client.pipe(upstream, {end: false})
    upstream.pipe(client)
    // With endAfterMs, Chrome hears of a client's end that long after it: late, as under load.
    if (endAfterMs !== undefined) client.once('close', () => setTimeout(() => upstream.destroy(), endAfterMs))
    client.on('error', () => {})
    upstream.on('error', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('the relay has no port')
  return {
    port: address.port,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
