import {existsSync, mkdirSync} from 'node:fs'
import {join} from 'node:path'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {sessionFile, tapir, tempDir} from '../helpers/cli.js'
import {fakeDevTools, HUGE, type FakeDevTools, type ListMode, type SocketMode} from '../helpers/fake-devtools.js'
import {hostileVm} from '../helpers/hostile-vm.js'
import {mcpClient} from '../helpers/mcp.js'
import {processesWith} from '../helpers/page-probe.js'

/** What a leaked JavaScript error looks like instead of a message of tapir's own. */
const LEAK = /Unexpected error|TypeError|SyntaxError|Cannot read properties|\n\s+at |undefined|\[object Object\]/

/** A session whose Chrome is a fake DevTools endpoint (the VM Service is never reached by these verbs). */
describe('a broken or hostile Chrome DevTools endpoint', () => {
  const scratch = tempDir('tapir-devtools-')
  let fake: FakeDevTools | undefined
  let state = ''
  const serve = async (modes: {list?: ListMode; socket?: SocketMode}) => {
    fake = await fakeDevTools(modes)
    state = sessionFile(scratch.path, 'ws://127.0.0.1:9/AbCdEfGh12s=/ws', {cdpPort: fake.port})
    return fake
  }
  const run = (args: string[]) => tapir([...args, '--state', state], {cwd: scratch.path, home: scratch.path})
  const timed = async (args: string[]) => {
    const started = Date.now()
    const result = await run(args)
    return {...result, ms: Date.now() - started}
  }
  const RESIZE = ['tapir:resize', '--width=375', '--height=812']

  afterEach(async () => {
    await fake?.close()
    fake = undefined
  })
  afterAll(() => {
    // Every tapir these tests ran names the scratch folder on its command line: none may be left.
    expect(processesWith(scratch.path)).toEqual([])
    scratch.remove()
  })

  describe('malformed answers are one line, exit 1, no stack trace (issue 19, item 4)', () => {
    it.each([
      ['object', 'an object'],
      ['null', 'null'],
      ['string', 'a string'],
      ['garbage', 'text that is not JSON'],
      ['null-items', 'a list whose item 0 is null'],
    ] as const)('a /json/list that is %s', async (mode, what) => {
      const {port} = await serve({list: mode})
      const result = await run(RESIZE)
      expect(result).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: `✗ Chrome's DevTools port ${port} answered /json/list with ${what}, not a list of targets. Check that ${port} is the remote debugging port of a Chrome.`,
      })
    })

    it.each([
      ['garbage', 'Chrome sent a message that is not JSON'],
      ['null-result', 'its result is null, not an object'],
      ['missing-result', 'the answer has no result'],
    ] as const)('a page socket whose answer is %s', async (mode, what) => {
      await serve({socket: mode})
      const result = await run(RESIZE)
      expect(result).toEqual({exitCode: 1, stdout: '', stderr: `✗ CDP command failed: Emulation.setDeviceMetricsOverride: ${what}.`})
    })

    it('an empty answer to Runtime.evaluate (the screenshot asks whether the page is visible)', async () => {
      await serve({socket: 'empty-evaluate'})
      const result = await run(['tapir:screenshot', '--output=shot.png'])
      expect(result).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: '✗ CDP command failed: Runtime.evaluate: its result has no remote object (result).',
      })
      expect(existsSync(join(scratch.path, 'shot.png'))).toBe(false)
    })

    it('over MCP the same failures are an error result with exitCode 1, and the server keeps serving', async () => {
      await serve({list: 'garbage'})
      const client: Client = await mcpClient(state)
      try {
        const first = (await client.callTool({name: 'tapir_resize_viewport', arguments: {width: 375, height: 812}})) as {
          isError?: boolean
          content: Array<{text: string}>
        }
        expect(first.isError).toBe(true)
        const [message, object] = first.content[0]!.text.split('\n')
        expect(message).toMatch(/^Chrome's DevTools port \d+ answered \/json\/list with text that is not JSON/)
        expect(JSON.parse(object!)).toMatchObject({error: {exitCode: 1}})
        const again = (await client.callTool({name: 'tapir_device_profile', arguments: {preset: 'pixel-8'}})) as {isError?: boolean}
        expect(again.isError).toBe(true)
      } finally {
        await client.close()
      }
    })
  })

  describe('--timeout bounds every listing, connection and call (item 5)', () => {
    it('a page list that never comes: the verb gives up at --timeout', async () => {
      const {port} = await serve({list: 'never'})
      const result = await timed([...RESIZE, '--timeout=1500'])
      expect(result).toMatchObject({
        exitCode: 1,
        stderr: `✗ Chrome's DevTools port ${port} did not answer /json/list within 1500 ms (--timeout). Is Chrome busy, or is something else listening on ${port}?`,
      })
      expect(result.ms).toBeLessThan(1500 + 4000)
    })

    it('a WebSocket that is never upgraded: the verb gives up at --timeout and the process exits', async () => {
      const {port} = await serve({socket: 'no-upgrade'})
      const result = await timed([...RESIZE, '--timeout=1500'])
      expect(result).toMatchObject({
        exitCode: 1,
        stderr: `✗ Chrome's DevTools port ${port} did not open the page's WebSocket within 1500 ms (--timeout). Is Chrome busy, or is something else listening on ${port}?`,
      })
      expect(result.ms).toBeLessThan(1500 + 4000)
    })

    it('a command that is never answered: the verb gives up at --timeout, --hold included', async () => {
      await serve({socket: 'silent'})
      for (const args of [RESIZE, [...RESIZE, '--hold'], ['tapir:device', '--preset=pixel-8']]) {
        const result = await timed([...args, '--timeout=1500'])
        expect(result.exitCode, args.join(' ')).toBe(1)
        expect(result.stderr).toMatch(
          /^✗ CDP command failed: [\w.]+: Chrome did not answer within 1500 ms \(--timeout\)\. The page may be paused or busy\.$/,
        )
        expect(result.ms).toBeLessThan(1500 + 4000)
      }
    })
  })

  it('a page list naming a WebSocket on another host is refused; nothing connects there (item 6)', async () => {
    const fakeChrome = await serve({list: 'other-host'})
    const result = await run(RESIZE)
    expect(result).toMatchObject({exitCode: 1, stdout: ''})
    expect(result.stderr).toMatch(
      new RegExp(
        `^✗ Chrome's DevTools port ${fakeChrome.port} lists the page's WebSocket on 127\\.0\\.0\\.2:\\d+, not on 127\\.0\\.0\\.1:${fakeChrome.port}; tapir connects only to the session's cdpPort\\.$`,
      ),
    )
    expect(fakeChrome.otherHostUpgrades()).toBe(0)
  })

  describe('a screenshot is written only when it decodes as the format asked for (item 7)', () => {
    it('data that is base64 but not an image: exit 1, no file', async () => {
      await serve({socket: 'not-an-image'})
      const result = await run(['tapir:screenshot', '--output=shot.png'])
      expect(result).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: "✗ Chrome's screenshot is not a PNG image (it does not start with the PNG signature); nothing was written.",
      })
      expect(existsSync(join(scratch.path, 'shot.png'))).toBe(false)
    })

    it('a PNG where a JPEG was asked for: exit 1, no file', async () => {
      await serve({})
      const result = await run(['tapir:screenshot', '--output=shot.jpg'])
      expect(result).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: "✗ Chrome's screenshot is not a JPEG image (it does not start with a JPEG marker); nothing was written.",
      })
      expect(existsSync(join(scratch.path, 'shot.jpg'))).toBe(false)
    })

    it("the app's own capture (a session with no Chrome) is checked the same way: exit 3, no file", async () => {
      const vm = await hostileVm((method) =>
        method === 'ext.tapir.screenshot'
          ? {result: {base64: Buffer.from('hello, not an image').toString('base64'), format: 'png', width: 1, height: 1}}
          : undefined,
      )
      try {
        mkdirSync(join(scratch.path, 'app'), {recursive: true})
        const appState = sessionFile(join(scratch.path, 'app'), vm.httpUri)
        const result = await tapir(['tapir:screenshot', '--output=app.png', '--state', appState], {cwd: scratch.path, home: scratch.path})
        expect(result).toEqual({
          exitCode: 3,
          stdout: '',
          stderr: "✗ The app's screenshot is not a PNG image (it does not start with the PNG signature); nothing was written.",
        })
        expect(existsSync(join(scratch.path, 'app.png'))).toBe(false)
      } finally {
        await vm.close()
      }
    })

    it('an honest PNG is written', async () => {
      await serve({})
      const result = await run(['tapir:screenshot', '--output=ok.png'])
      expect(result.exitCode, result.stderr).toBe(0)
      expect(existsSync(join(scratch.path, 'ok.png'))).toBe(true)
    })
  })

  describe('a 20 MB message from the endpoint is cut to a sane length (item 8)', () => {
    it('in an error of a page socket: the CLI line, --json and MCP', async () => {
      await serve({socket: 'huge-error'})
      // With --json the CLI prints the error object on stdout and the ✗ line on stderr.
      const cli = await run([...RESIZE, '--json'])
      expect(cli.exitCode).toBe(1)
      expect(cli.stderr).toMatch(/^✗ CDP command failed: Emulation\.setDeviceMetricsOverride: x{100,}… \(\d+ more characters\)$/)
      expect(cli.stderr.length).toBeLessThan(1100)
      expect(cli.stdout.length).toBeLessThan(1100)
      expect(JSON.parse(cli.stdout).error.message).toMatch(/… \(\d+ more characters\)$/)

      const client: Client = await mcpClient(state)
      try {
        const result = (await client.callTool({name: 'tapir_resize_viewport', arguments: {width: 375, height: 812}})) as {
          content: Array<{text: string}>
        }
        expect(result.content[0]!.text.length).toBeLessThan(2200)
      } finally {
        await client.close()
      }
    })

    it('in the body of an HTTP error: named by its status, never echoed', async () => {
      const {port} = await serve({list: 'huge-error'})
      const result = await run(RESIZE)
      expect(result).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: `✗ Chrome's DevTools port ${port} answered /json/list with HTTP 500. Check that ${port} is the remote debugging port of a Chrome.`,
      })
      expect(result.stderr).not.toContain(HUGE.slice(0, 100))
    })
  })

  it('no answer above ever leaked a JavaScript error', async () => {
    await serve({socket: 'garbage'})
    for (const args of [RESIZE, ['tapir:device', '--reset'], ['tapir:screenshot', '--output=x.png']]) {
      const result = await run(args)
      expect(result.stderr).not.toMatch(LEAK)
      expect(result.stderr.split('\n')).toHaveLength(1)
    }
  })
})
