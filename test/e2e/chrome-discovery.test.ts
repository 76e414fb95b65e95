import {existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {ROOT, tapir, tempDir} from '../helpers/cli.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {eventually, freePort, processesWith} from '../helpers/page-probe.js'

expectNoProcessLeft()

/** A stand-in browser that answers /json/version on its debugging port (test/fixtures/fake-chrome). */
const FAKE_CHROME = join(ROOT, 'test', 'fixtures', 'fake-chrome', 'chrome')
const isRoot = process.getuid?.() === 0

/** `tapir start --device=sim --cdp-port` finds the browser the way users have it installed. The
 *  browser is a fake (only its DevTools version endpoint), so what is tested is the finding and
 *  the launch line; tests/e2e/chrome.test.ts drives a real one. */
describe('tapir start --cdp-port finds Chrome where users have it (issue 18, item 10)', () => {
  const scratch = tempDir('tapir-find-chrome-')
  // PATH holds node (the fake's interpreter) and nothing named like a browser.
  const bin = join(scratch.path, 'bin')
  mkdirSync(bin)
  symlinkSync(process.execPath, join(bin, 'node'))
  const env = (extra: Record<string, string>) => ({TAPIR_CHROME_BIN: '', CHROME_PATH: '', PATH: bin, ...extra})

  afterAll(() => {
    expect(processesWith(FAKE_CHROME)).toEqual([])
    scratch.remove()
  })

  async function startAndStop(home: string, extra: Record<string, string>): Promise<{argv: string[]; args: string[]}> {
    const cdpPort = await freePort()
    const argvFile = join(home, 'fake-chrome-argv.json')
    const run = (args: string[]) => tapir(args, {cwd: home, home, env: env({...extra, FAKE_CHROME_ARGV: argvFile})})
    const start = await run(['start', '--device=sim', `--cdp-port=${cdpPort}`])
    expect(start.exitCode, start.stderr).toBe(0)
    const statePath = /^✓ state=(.*)$/m.exec(start.stdout)![1]!
    const session = JSON.parse(readFileSync(statePath, 'utf8')) as {processes: {chrome: {argv: string[]}}; tmpProfileDir: string}
    const stop = await run(['stop'])
    expect(stop.exitCode, stop.stderr).toBe(0)
    expect(
      await eventually(
        async () => processesWith(`--user-data-dir=${session.tmpProfileDir}`),
        (pids) => pids.length === 0,
      ),
    ).toEqual([])
    expect(existsSync(session.tmpProfileDir)).toBe(false)
    return {argv: session.processes.chrome.argv, args: JSON.parse(readFileSync(argvFile, 'utf8')) as string[]}
  }

  it('CHROME_PATH names the browser; --no-sandbox only as root', async () => {
    const home = join(scratch.path, 'chrome-path')
    mkdirSync(home)
    const {argv, args} = await startAndStop(home, {CHROME_PATH: FAKE_CHROME})
    // A script: the system reports its interpreter first, as it would a launcher script's browser.
    expect(argv.slice(0, 2)).toEqual(['node', FAKE_CHROME])
    expect(args).toEqual(argv.slice(2))
    expect(args).toContain('--headless')
    expect(args.includes('--no-sandbox')).toBe(isRoot)
  })

  it("a browser the user's desktop menu starts (~/.local/share/applications) is found with nothing on PATH", async () => {
    const home = join(scratch.path, 'desktop-entry')
    const applications = join(home, '.local', 'share', 'applications')
    mkdirSync(applications, {recursive: true})
    // A launcher script, as google-chrome and Debian's chromium are: it execs the browser with flags of its own.
    const launcher = join(home, 'chrome browser', 'google-chrome')
    mkdirSync(dirname(launcher))
    writeFileSync(launcher, `#!/bin/sh\nexec "${FAKE_CHROME}" --launcher-flag "$@"\n`, {mode: 0o755})
    writeFileSync(
      join(applications, 'google-chrome.desktop'),
      `[Desktop Entry]\nName=Google Chrome\nExec="${launcher}" %U\nType=Application\n`,
    )
    const {argv, args} = await startAndStop(home, {})
    expect(argv.slice(0, 3)).toEqual(['node', FAKE_CHROME, '--launcher-flag'])
    expect(args).toEqual(argv.slice(2))
  })

  it('a CHROME_PATH that names no executable is refused before anything starts', async () => {
    const home = join(scratch.path, 'bad-path')
    mkdirSync(home)
    const missing = join(home, 'no-chrome')
    const result = await tapir(['start', '--device=sim', `--cdp-port=${await freePort()}`], {
      cwd: home,
      home,
      env: env({CHROME_PATH: missing}),
    })
    expect(result).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: `✗ CHROME_PATH names ${missing}, which is not an executable file. Point it at a Chrome or Chromium binary.`,
    })
    expect(
      readdirSync(home, {recursive: true})
        .map(String)
        .filter((path) => path.endsWith('state.json')),
    ).toEqual([])
  })
})
