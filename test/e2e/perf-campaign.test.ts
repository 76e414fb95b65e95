import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {chromeBinary} from '../helpers/chrome.js'
import {ROOT, tapir, tempDir} from '../helpers/cli.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {freePort, processesWith} from '../helpers/page-probe.js'
import {reportBrowser, type ReportBrowser} from '../helpers/report-page.js'

expectNoProcessLeft()

const SECRET = 'campaign-secret-7'

function scenario(name: string, step: string): string {
  return `name: ${name}
platforms: [sim]
repeat: 2
setup:
  - hot_restart
  - fill: {target: {key: email}, text: ada@example.com}
  - fill: {target: {key: password}, text: "\${env.PERF_PASSWORD}"}
  - tap: {target: {key: signIn}}
  - wait_for_text: Monitors
steps:
  - ${step}
`
}

describe('tapir:perf_campaign on the sim platform', () => {
  const dir = tempDir('tapir-campaign-')
  const state = join(dir.path, 'state.json')
  const out = join(dir.path, 'out')
  const campaign = (args: string[]) =>
    tapir(['tapir:perf_campaign', ...args, '--state', state, `--out=${out}`], {cwd: dir.path, env: {PERF_PASSWORD: SECRET}})

  beforeAll(() => {
    mkdirSync(join(dir.path, 'scenarios'))
    writeFileSync(join(dir.path, 'scenarios', 'list.yaml'), scenario('list', 'scroll: {target: {text: API}, dy: 400}'))
    writeFileSync(join(dir.path, 'scenarios', 'open.yaml'), scenario('open', 'tap: {target: {role: button, name: Web}}'))
    writeFileSync(join(dir.path, 'scenarios', 'web.yaml'), 'name: web\nplatforms: [chrome]\nsteps:\n  - wait: 10\n')
    writeFileSync(join(dir.path, 'lost.yaml'), scenario('lost', 'tap: {target: {text: Nowhere to be seen}}'))
    writeFileSync(
      join(dir.path, 'two.yaml'),
      'scenarios: ["scenarios/*.yaml"]\nretries: 0\nhooks:\n  before_campaign: echo "start $TAPIR_PERF_PLATFORM $TAPIR_PERF_LABEL" >> hooks.log\n  before_scenario: echo "scenario $TAPIR_PERF_SCENARIO $TAPIR_PERF_OUT" >> hooks.log\n',
    )
    writeFileSync(join(dir.path, 'failing.yaml'), 'scenarios: ["scenarios/list.yaml", "lost.yaml"]\nretries: 0\n')
    writeFileSync(
      join(dir.path, 'braces.yaml'),
      'scenarios: ["scenarios/*.yaml"]\nhooks:\n  before_scenario: echo ${TAPIR_PERF_SCENARIO}\n',
    )
  })
  afterAll(async () => {
    await tapir(['stop', '--state', state], {cwd: dir.path})
    dir.remove()
  })

  it('passes a two-scenario campaign: hooks through the shell with the TAPIR_PERF_* variables, a run file each, the app stopped after', async () => {
    const result = await campaign(['two.yaml', '--platform=sim', '--label=nightly'])
    expect(result.exitCode).toBe(0)
    expect(result.stdout.split('\n')).toEqual(['  list  ok', '  open  ok', `report: ${join(out, 'index.html')}`])
    expect(readFileSync(join(dir.path, 'hooks.log'), 'utf8').split('\n')).toEqual([
      'start sim nightly',
      `scenario list ${out}`,
      `scenario open ${out}`,
      '',
    ])
    for (const name of ['list', 'open']) expect(JSON.parse(readFileSync(join(out, `${name}-nightly.json`), 'utf8')).summary.repeats).toBe(2)
    expect(existsSync(state)).toBe(false)
    const index = readFileSync(join(out, 'index.html'), 'utf8')
    expect(index).toContain('perf_campaign: all 2 scenario(s) passed')
    for (const name of ['list', 'open']) expect(index).toContain(`<a href="${name}-nightly.html">report</a>`)
    const pages = ['index.html', 'list-nightly.html', 'open-nightly.html'].map((page) => readFileSync(join(out, page), 'utf8'))
    for (const text of [result.stdout, result.stderr, readFileSync(join(out, 'list-nightly.json'), 'utf8'), ...pages])
      expect(text).not.toContain(SECRET)
  }, 90_000)

  it('exits 1 when a scenario fails, naming its error file; --json lists every result', async () => {
    const result = await campaign(['failing.yaml', '--platform=sim', '--json'])
    expect(result.exitCode).toBe(1)
    const errFile = join(out, 'lost-run.err')
    expect(JSON.parse(result.stdout)).toEqual({
      results: [
        {
          scenario: 'list',
          status: 'ok',
          attempts: 1,
          runFile: join(out, 'list-run.json'),
          errFile: null,
          report: join(out, 'list-run.html'),
        },
        {scenario: 'lost', status: 'failed', attempts: 1, runFile: null, errFile, report: null},
      ],
      index: join(out, 'index.html'),
    })
    const index = readFileSync(join(out, 'index.html'), 'utf8')
    expect(index).toContain('perf_campaign: 1 of 2 scenario(s) failed')
    expect(index).toContain('<a href="lost-run.err">error file</a>')
    const err = readFileSync(errFile, 'utf8')
    expect(err).toMatch(
      /^attempt 1\/1: lost: steps\[0\] \(tap\) failed: target \{text: "Nowhere to be seen"\} matched nothing within 3 s\nDiagnostics: /,
    )
    expect(err).not.toContain(SECRET)
    const text = await campaign(['failing.yaml', '--platform=sim', '--only=lost'])
    expect(text).toMatchObject({exitCode: 1, stdout: `  lost  FAILED (see ${errFile})\nreport: ${join(out, 'index.html')}`})
  }, 90_000)

  it("refuses up front while a session is recorded, and leaves that session's app running", async () => {
    const started = await tapir(['start', '--device=sim', '--state', state], {cwd: dir.path})
    expect(started.exitCode, started.stderr).toBe(0)
    const result = await campaign(['two.yaml', '--platform=sim', '--label=kept'])
    expect(result).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: `✗ A session is recorded at ${state}, and perf_campaign would stop its app: the campaign starts and stops an app of its own for every scenario. Run \`tapir stop\` first, or give the campaign a session file of its own with --state=<file>.`,
    })
    expect(existsSync(join(out, 'list-kept.json'))).toBe(false)
    const status = await tapir(['status', '--state', state], {cwd: dir.path})
    expect(JSON.parse(status.stdout)).toMatchObject({answering: true, tapir: true})
    expect((await tapir(['stop', '--state', state], {cwd: dir.path})).exitCode).toBe(0)
  })

  it('refuses ${ in hooks, a platform the campaign file does not configure, and an --only that matches nothing', async () => {
    expect(await campaign(['braces.yaml', '--platform=sim'])).toMatchObject({
      exitCode: 1,
      stderr:
        '✗ Invalid perf campaign:\n- hooks.before_scenario: ${ is refused in hooks (they are not interpolated); read the TAPIR_PERF_* variables as $NAME',
    })
    expect(await campaign(['two.yaml', '--platform=chrome'])).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: `✗ The campaign file ${join(dir.path, 'two.yaml')} does not configure chrome, so tapir cannot start the app there: add chrome: {cdp_port: 9222, flutter_args: [--profile]}`,
    })
    expect(await campaign(['two.yaml', '--platform=sim', '--only=nothing'])).toMatchObject({
      exitCode: 1,
      stderr: '✗ No scenario matched --only=nothing on sim.',
    })
  })
})

const FAKE_FLUTTER = join(ROOT, 'test', 'fixtures', 'fake-flutter', 'flutter')

/** Running: a zombie (exited, not yet reaped) is gone. */
const alive = (pid: number): boolean => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z'
  } catch {
    return false
  }
}

describe('tapir:perf_campaign on real platforms, started as tapir start --device=<id> starts them (the fake flutter)', () => {
  const dir = tempDir('tapir-campaign-device-')
  const state = join(dir.path, 'state.json')
  const out = join(dir.path, 'out')
  const flutterLog = join(dir.path, 'flutter.log')
  let env: Record<string, string>
  let cdpPort: number
  let browser: ReportBrowser | undefined
  const campaign = (file: string, args: string[]) =>
    tapir(['tapir:perf_campaign', file, ...args, '--state', state, `--out=${out}`], {cwd: dir.path, env})
  /** What the fake flutter was asked to run since the last call: its pid and arguments per run. */
  let seen = 0
  const flutterRuns = (): Array<{pid: number; args: string}> => {
    const lines = existsSync(flutterLog) ? readFileSync(flutterLog, 'utf8').split('\n').filter(Boolean) : []
    const fresh = lines.slice(seen)
    seen = lines.length
    return fresh.map((line) => ({pid: Number(line.split(' ')[0]), args: line.slice(line.indexOf(' ') + 1)}))
  }

  beforeAll(async () => {
    cdpPort = await freePort()
    env = {PERF_PASSWORD: SECRET, TAPIR_FLUTTER_BIN: join(dir.path, 'flutter'), TAPIR_CHROME_BIN: await chromeBinary()}
    writeFileSync(join(dir.path, 'pubspec.yaml'), 'name: demo\n')
    mkdirSync(join(dir.path, 'lib'))
    // flutter as a user's PATH would give it, logging how it was called before it runs.
    writeFileSync(join(dir.path, 'flutter'), `#!/bin/sh\necho "$$ $*" >> '${flutterLog}'\nexec '${FAKE_FLUTTER}' "$@"\n`, {mode: 0o755})
    mkdirSync(join(dir.path, 'scenarios'))
    const onDevice = (name: string, step: string) =>
      scenario(name, step).replace('platforms: [sim]', 'platforms: [android]').replace('repeat: 2', 'repeat: 1')
    writeFileSync(join(dir.path, 'scenarios', 'list.yaml'), onDevice('list', 'scroll: {target: {text: API}, dy: 400}'))
    writeFileSync(join(dir.path, 'scenarios', 'open.yaml'), onDevice('open', 'tap: {target: {role: button, name: Web}}'))
    writeFileSync(
      join(dir.path, 'scenarios', 'web.yaml'),
      'name: web\nplatforms: [chrome]\nrepeat: 1\nsteps:\n  - tap: {target: {key: email}}\n  - type: {target: {key: email}, text: ada}\n',
    )
    writeFileSync(
      join(dir.path, 'campaign.yaml'),
      `scenarios: ["scenarios/*.yaml"]\nretries: 0\nandroid:\n  device: emulator-5554\n  flutter_args: ["--dart-define=PERF=1"]\nchrome:\n  cdp_port: ${cdpPort}\n`,
    )
    writeFileSync(join(dir.path, 'prep.yaml'), 'scenarios: ["scenarios/*.yaml"]\nandroid: {avd: Pixel_7, device: emulator-5554}\nios: {}\n')
  })
  afterAll(async () => {
    await browser?.close()
    await tapir(['stop', '--state', state], {cwd: dir.path})
    dir.remove()
  })

  it('android: per scenario starts the app on the device with the flutter arguments, measures it, stops it, and writes the index', async () => {
    const result = await campaign(join(dir.path, 'campaign.yaml'), ['--platform=android', '--label=device'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout.split('\n')).toEqual(['  list  ok', '  open  ok', `report: ${join(out, 'index.html')}`])
    expect(result.stderr).toContain('list: starting the app on emulator-5554\n')
    expect(result.stderr).toContain('open: starting the app on emulator-5554\n')
    const runs = flutterRuns()
    expect(runs.map((run) => run.args)).toEqual([
      'run --machine -d emulator-5554 --no-dds --dart-define=PERF=1',
      'run --machine -d emulator-5554 --no-dds --dart-define=PERF=1',
    ])
    expect(new Set(runs.map((run) => run.pid)).size).toBe(2)
    for (const {pid} of runs) expect(alive(pid), `flutter pid ${pid}`).toBe(false)
    expect(existsSync(state)).toBe(false)
    for (const name of ['list', 'open']) {
      const run = JSON.parse(readFileSync(join(out, `${name}-device.json`), 'utf8'))
      expect(run.env).toMatchObject({device: 'emulator-5554', target: 'android', emulator: true})
      expect(run.summary.repeats).toBe(1)
      expect(run.repeats[0].frameTimes.rows.length).toBe(run.repeats[0].summary.frames.painted)
    }

    browser = await reportBrowser()
    const page = await browser.open(join(out, 'index.html'))
    await page.screenshot(join(dir.path, 'index.png'))
    expect(await page.evaluate('document.querySelector(".verdict").textContent')).toBe('perf_campaign: all 2 scenario(s) passed')
    const rows = await page.evaluate<Array<{scenario: string; status: string; links: string[]}>>(
      `[...document.querySelectorAll('tr.scenario')].map((tr) => ({scenario: tr.dataset.scenario, status: tr.querySelector('.tag').textContent, links: [...tr.querySelectorAll('a')].map((a) => a.href)}))`,
    )
    expect(rows).toEqual(
      ['list', 'open'].map((name) => ({
        scenario: name,
        status: 'ok',
        links: [pathToFileURL(join(out, `${name}-device.html`)).href, pathToFileURL(join(out, `${name}-device.json`)).href],
      })),
    )
    for (const link of rows.flatMap((row) => row.links)) expect(existsSync(fileURLToPath(link))).toBe(true)
    expect(page.requests).toEqual([pathToFileURL(join(out, 'index.html')).href])
  }, 120_000)

  it("chrome: starts the web app in flutter's headless Chrome with its DevTools on the cdp_port of the campaign file, and ends both", async () => {
    const result = await campaign(join(dir.path, 'campaign.yaml'), ['--platform=chrome', '--label=web'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout.split('\n')).toEqual(['  web  ok', `report: ${join(out, 'index.html')}`])
    const [run] = flutterRuns()
    expect(run!.args).toBe(`run --machine -d chrome --web-browser-debug-port ${cdpPort} --web-run-headless --no-dds`)
    const file = JSON.parse(readFileSync(join(out, 'web-web.json'), 'utf8'))
    expect(file.env).toMatchObject({device: 'chrome', target: 'chrome', emulator: false})
    expect(file.summary.repeats).toBe(1)
    expect(alive(run!.pid)).toBe(false)
    expect(processesWith(`--remote-debugging-port=${cdpPort}`)).toEqual([])
    expect(existsSync(state)).toBe(false)
  }, 120_000)

  it('refuses a platform the file does not configure in one line, and the android preparation tapir does not do', async () => {
    expect(await campaign(join(dir.path, 'campaign.yaml'), ['--platform=ios'])).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: `✗ The campaign file ${join(dir.path, 'campaign.yaml')} does not configure ios, so tapir cannot start the app there: add ios: {device: <the UDID from flutter devices>, flutter_args: [--profile]}`,
    })
    expect(await campaign(join(dir.path, 'prep.yaml'), ['--platform=android'])).toMatchObject({
      exitCode: 1,
      stderr: [
        '✗ Invalid perf campaign:',
        '- android.avd: tapir does not boot emulators, forward ports or grant permissions; boot the device yourself and name it in android.device',
        '- ios.device: required, the flutter device id to run on (flutter devices lists them)',
      ].join('\n'),
    })
    expect(flutterRuns()).toEqual([])
  })
})
