import {existsSync, readdirSync} from 'node:fs'
import {createServer, type Server} from 'node:net'
import {join} from 'node:path'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {BIN, sessionFile, tapir, tempDir} from '../helpers/cli.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {McpTestClient} from '../helpers/mcp.js'
import {freePort} from '../helpers/page-probe.js'
import {withSimSession} from '../helpers/sim.js'

expectNoProcessLeft()

const CDP_NOT_ENABLED = /^✗ CDP not enabled\. Run `tapir start --device=sim --cdp-port=9222` first/

type Content = Array<{type: string; text: string}>
const textOf = (result: unknown) => (result as {content: Content}).content[0]!.text

describe('Chrome verbs refuse what they cannot do, with exit 1 and one line (no Chrome needed)', () => {
  const s = withSimSession()

  it('resize, device and a CDP screenshot say CDP is not enabled when the session has no cdpPort', async () => {
    for (const args of [
      ['tapir:resize', '--width=375', '--height=812'],
      ['tapir:device', '--preset=pixel-8'],
      ['tapir:device', '--reset'],
      ['tapir:resize', '--reset'],
    ]) {
      const result = await s.run(args)
      expect(result.exitCode, args.join(' ')).toBe(1)
      expect(result.stderr).toMatch(CDP_NOT_ENABLED)
      expect(result.stdout).toBe('')
    }
  })

  it('with no session at all, resize says CDP is not enabled too', async () => {
    const scratch = tempDir()
    try {
      const result = await tapir(['tapir:resize', '--width=375', '--height=812'], {cwd: scratch.path, home: scratch.path})
      expect(result.exitCode).toBe(1)
      expect(result.stderr).toMatch(CDP_NOT_ENABLED)
    } finally {
      scratch.remove()
    }
  })

  it('a resize with no size is refused before anything is sent', async () => {
    for (const args of [['tapir:resize'], ['tapir:resize', '--width=375'], ['tapir:resize', '--width=0', '--height=812']]) {
      const result = await s.run(args)
      expect(result).toMatchObject({
        exitCode: 1,
        stdout: '',
        stderr: '✗ A resize needs a positive --width and --height (e.g. --width=375 --height=812), or --reset.',
      })
    }
    expect(await s.run(['tapir:resize', '--width=375', '--height=812', '--dpr=0'])).toMatchObject({
      exitCode: 1,
      stderr: '✗ --dpr must be above 0 (got 0).',
    })
  })

  it('an unknown preset is refused, pointing at --list; device with nothing to do says what to pass', async () => {
    expect(await s.run(['tapir:device', '--preset=nokia-3310'])).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: "✗ Unknown preset 'nokia-3310'. Run tapir:device --list to see available.",
    })
    expect(await s.run(['tapir:device'])).toMatchObject({
      exitCode: 1,
      stderr: '✗ Pass --preset=<name>, --list or --reset. Run tapir:device --list to see the presets.',
    })
  })

  it('device --list needs no Chrome: the 8 presets in the original format', async () => {
    const result = await s.run(['tapir:device', '--list'])
    expect(result.exitCode).toBe(0)
    expect(result.stdout.split('\n')).toEqual([
      'iphone-x: 375x812 @ 3.0x (mobile=true touch=true)',
      'iphone-13: 390x844 @ 3.0x (mobile=true touch=true)',
      'iphone-15-pro: 393x852 @ 3.0x (mobile=true touch=true)',
      'pixel-5: 393x851 @ 2.75x (mobile=true touch=true)',
      'pixel-8: 412x915 @ 2.625x (mobile=true touch=true)',
      'ipad-pro-12.9: 1024x1366 @ 2.0x (mobile=true touch=true)',
      'desktop-1440: 1440x900 @ 1.0x (mobile=false touch=false)',
      'desktop-1920: 1920x1080 @ 1.0x (mobile=false touch=false)',
    ])
  })

  describe('when Chrome is gone (nothing listens on the recorded cdpPort)', () => {
    const scratch = tempDir()
    let state: string
    let port: number
    beforeAll(async () => {
      port = await freePort()
      state = sessionFile(scratch.path, s.sim.httpUri, {cdpPort: port})
    })
    afterAll(() => scratch.remove())

    it('resize, device and screenshot fail to connect, exit 1', async () => {
      for (const args of [
        ['tapir:resize', '--width=375', '--height=812'],
        ['tapir:device', '--preset=iphone-x'],
        ['tapir:screenshot', '--output=shot.png'],
      ]) {
        const result = await tapir([...args, '--state', state], {cwd: scratch.path})
        expect(result.exitCode, args.join(' ')).toBe(1)
        expect(result.stderr).toMatch(new RegExp(`^✗ Failed to connect to Chrome CDP on port ${port}: .+$`))
      }
      expect(existsSync(join(scratch.path, 'shot.png'))).toBe(false)
    })
  })

  describe('over MCP', () => {
    let client: Client
    beforeAll(async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp:serve', '--state', s.state],
        env: {...process.env, NODE_ENV: 'production'} as Record<string, string>,
        stderr: 'pipe',
      })
      client = new McpTestClient()
      await client.connect(transport)
    })
    afterAll(() => client.close())

    it('tapir_resize_viewport reports CDP not enabled, a missing size, and an argument the schema does not list', async () => {
      const noCdp = await client.callTool({name: 'tapir_resize_viewport', arguments: {width: 375, height: 812}})
      expect(noCdp.isError).toBe(true)
      expect(textOf(noCdp)).toMatch(/^CDP not enabled\./)
      const noSize = await client.callTool({name: 'tapir_resize_viewport', arguments: {dpr: 2}})
      expect({isError: noSize.isError, firstLine: textOf(noSize).split('\n')[0]}).toEqual({
        isError: true,
        firstLine: 'A resize needs a positive width and height (e.g. width=375 height=812), or reset.',
      })
      // An argument the schema does not list is an isError result a model can correct, as for every tool.
      const unknown = await client.callTool({name: 'tapir_resize_viewport', arguments: {width: 375, height: 812, deviceScaleFactor: 3}})
      expect(unknown.isError).toBe(true)
      expect(textOf(unknown)).toContain('tapir_resize_viewport takes no argument "deviceScaleFactor"')
    })

    it('tapir_device_profile lists the presets without Chrome, and refuses an unknown one pointing at the list', async () => {
      const list = await client.callTool({name: 'tapir_device_profile', arguments: {list: true, preset: 'nope'}})
      expect(list.isError).toBeFalsy()
      const {presets} = JSON.parse(textOf(list)) as {
        presets: Array<{name: string; width: number; height: number; dpr: number; mobile: boolean}>
      }
      expect(presets).toHaveLength(8)
      expect(presets[4]).toMatchObject({name: 'pixel-8', width: 412, height: 915, dpr: 2.625, mobile: true})
      const unknown = await client.callTool({name: 'tapir_device_profile', arguments: {preset: 'nokia-3310'}})
      expect({isError: unknown.isError, firstLine: textOf(unknown).split('\n')[0]}).toEqual({
        isError: true,
        firstLine: "Unknown preset 'nokia-3310'. Call tapir_device_profile with list: true to see available.",
      })
      const noCdp = await client.callTool({name: 'tapir_device_profile', arguments: {preset: 'iphone-x'}})
      expect(textOf(noCdp)).toMatch(/^CDP not enabled\./)
    })
  })
})

describe('tapir start --device=sim --cdp-port refuses before starting anything', () => {
  const scratch = tempDir()
  afterAll(() => scratch.remove())

  it('when TAPIR_CHROME_BIN names no executable: exit 1, how to point at one, no session written', async () => {
    const result = await tapir(['start', '--device=sim', '--cdp-port=9', '--json'], {
      cwd: scratch.path,
      home: scratch.path,
      env: {TAPIR_CHROME_BIN: join(scratch.path, 'no-chrome')},
    })
    expect(result.exitCode).toBe(1)
    expect(JSON.parse(result.stdout).error.message).toBe(
      `TAPIR_CHROME_BIN names ${join(scratch.path, 'no-chrome')}, which is not an executable file. Point it at a Chrome or Chromium binary.`,
    )
    // The session lock's folder may exist; no session file is written.
    expect(
      readdirSync(scratch.path, {recursive: true})
        .map(String)
        .filter((path) => path.endsWith('state.json')),
    ).toEqual([])
  })

  it('when the CDP port is busy', async () => {
    const busy: Server = createServer()
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
    const port = (busy.address() as {port: number}).port
    try {
      const result = await tapir(['start', '--device=sim', `--cdp-port=${port}`], {
        cwd: scratch.path,
        home: scratch.path,
        env: {TAPIR_CHROME_BIN: process.execPath},
      })
      expect(result).toMatchObject({
        exitCode: 1,
        stderr: `✗ CDP port ${port} is already in use; pass --cdp-port <free-port> or free it before running start.`,
      })
    } finally {
      await new Promise((resolve) => busy.close(resolve))
    }
  })
})
