import {spawn} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {parseTrace} from '../../src/lib/trace/read-trace.js'
import {BIN, cliEnv, tapir, tempDir} from '../helpers/cli.js'
import {mcpClient} from '../helpers/mcp.js'
import {reportBrowser, type ReportBrowser} from '../helpers/report-page.js'
import {simSession, type SimSession} from '../helpers/sim.js'

/** Signs in with a hostile email, opens settings (whose row overflows: the app records a
 *  FlutterError) and fails on an expect. The email holds a secret from the environment. */
const FLOW = [
  'expect --route=/login',
  'find --key=email --as=email',
  'fill --ref=@email --text="<img src=x onerror=document.body.dataset.pwned=1>${env.TRACE_SECRET}@example.com"',
  'find --key=password --as=pw',
  'fill --ref=@pw --text=hunter22',
  'find --key=signIn --as=go',
  'tap --ref=@go',
  'navigate --route=/settings',
  'expect --text=Welcome --timeoutMs=300',
  '',
].join('\n')
const SECRET = 'zq9hush'

const textOf = (result: Record<string, unknown>): string =>
  (result.content as Array<{text?: string}>).map((part) => part.text ?? '').join('\n')

describe('traces', () => {
  let s: SimSession
  let project: {path: string; remove(): void}
  let browser: ReportBrowser
  const inProject = (args: string[], env: Record<string, string> = {}) => tapir([...args, '--state', s.state], {cwd: project.path, env})

  beforeAll(async () => {
    s = await simSession({flutterTool: true})
    project = tempDir('tapir-trace-')
    mkdirSync(join(project.path, 'flows'))
    writeFileSync(join(project.path, 'flows', 'hostile.tapir'), FLOW)
    browser = await reportBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    expect(s.sim.violations).toEqual([])
    await s.close()
    project.remove()
  })

  it('a failing tapir test keeps its trace by default, linked from the HTML and JUnit reports', async () => {
    const result = await inProject(['test', 'flows', '--output-dir=out'], {TRACE_SECRET: SECRET})
    expect(result.exitCode, result.stderr).toBe(1)
    const kept = readdirSync(join(project.path, 'out', 'traces'))
    expect(kept).toEqual([expect.stringMatching(/^flows_hostile-[0-9a-f]{12}-attempt1\.trace$/)])
    const trace = `traces/${kept[0]}`
    expect(readFileSync(join(project.path, 'out', 'report.html'), 'utf8')).toContain(`Trace: <a href="${trace}">${trace}</a>`)
    expect(readFileSync(join(project.path, 'out', 'junit.xml'), 'utf8')).toContain(`trace: out/${trace} (tapir show-trace &lt;it&gt;)`)
    const text = readFileSync(join(project.path, 'out', trace), 'utf8')
    expect(text).not.toContain(SECRET)
    expect(text).not.toContain(project.path)
    const read = parseTrace(text, trace)
    expect(read.header).toMatchObject({tapirTrace: 1, source: 'test', title: 'flows/hostile.tapir, attempt 1', app: 'tapir', device: 'sim'})
    expect(read.header.viewport?.width).toBeGreaterThan(0)
    expect(read.end).toBeDefined()
    expect(read.steps.map((step) => step.ok)).toEqual([true, true, true, true, true, true, true, true, false])
    // a screenshot after each action (the fills, the tap, the navigate), none after a read
    expect(read.steps.filter((step) => step.screenshot).map((step) => step.n)).toEqual([3, 5, 7, 8])
    expect(read.steps[2]!.screenshot!.format).toBe('png')
    expect(read.steps[6]).toMatchObject({route: '/monitors'})
    expect(read.steps[6]!.console!.map((entry) => (entry as {message: string}).message)).toContain(
      'Signed in as <img src=x onerror=document.body.dataset.pwned=1>***@example.com',
    )
    expect(read.steps[7]!.exceptions).toHaveLength(1)
    expect(read.steps[6]!.diff!.some((line) => line.startsWith('+ ') && line.includes('Monitors'))).toBe(true)
  })

  it('a passing test leaves no trace under retain-on-failure, and keeps one with --trace=on', async () => {
    writeFileSync(join(project.path, 'pass.tapir'), 'expect --route=/login\n')
    const kept = await inProject(['test', 'pass.tapir', '--output-dir=pass-out'])
    expect(kept.exitCode, kept.stderr).toBe(0)
    expect(existsSync(join(project.path, 'pass-out', 'traces'))).toBe(false)
    const on = await inProject(['test', 'pass.tapir', '--output-dir=on-out', '--trace=on', '--no-trace-screenshots'])
    expect(on.exitCode, on.stderr).toBe(0)
    expect(readdirSync(join(project.path, 'on-out', 'traces'))).toEqual([expect.stringMatching(/^pass-[0-9a-f]{12}-attempt1\.trace$/)])
    const off = await inProject(['test', 'flows', '--output-dir=off-out', '--trace=off'], {TRACE_SECRET: SECRET})
    expect(off.exitCode).toBe(1)
    expect(existsSync(join(project.path, 'off-out', 'traces'))).toBe(false)
    const bad = await inProject(['test', 'pass.tapir', '--trace=sometimes'])
    expect(bad.exitCode).toBe(1)
    expect(bad.stderr).toMatch(/--trace/)
  })

  it('show-trace makes a page that Chromium shows: the filmstrip, the failing step and the first exception, hostile text as text', async () => {
    const [name] = readdirSync(join(project.path, 'out', 'traces')).filter((file) => file.endsWith('.trace'))
    const result = await inProject(['show-trace', `out/traces/${name}`, '--no-open'])
    expect(result.exitCode, result.stderr).toBe(0)
    const page = join(project.path, 'out', 'traces', `${name}.html`)
    expect(result.stdout).toBe(`✓ Wrote ${page} (9 steps, 1 failed)`)
    const opened = await browser.open(page)
    // nothing fetched beyond the file itself
    expect(opened.requests.filter((url) => !url.startsWith('file://') && !url.startsWith('data:'))).toEqual([])
    expect(await opened.evaluate('document.querySelectorAll("#filmstrip img").length')).toBe(4)
    expect(
      await opened.evaluate('[...document.querySelectorAll("#filmstrip img")].every((img) => img.complete && img.naturalWidth > 0)'),
    ).toBe(true)
    expect(await opened.evaluate('[...document.querySelectorAll("#steps .step.failed .call")].map((e) => e.textContent)')).toEqual([
      'expect --text=Welcome --timeoutMs=300',
    ])
    // the failing step is the one shown, with its output and the exception that came before it
    expect(await opened.evaluate('document.querySelector("#detail h2").textContent')).toBe('Step 9 failed (exit 1)')
    expect(await opened.evaluate('document.querySelector("#d-output pre").textContent')).toMatch(/Expected a widget with text "Welcome"/)
    expect(await opened.evaluate('document.querySelector("#d-first-exception h3").textContent')).toBe(
      'First exception of the trace: during step 8 (navigate --route=/settings)',
    )
    expect(await opened.evaluate('document.querySelector("#d-first-exception pre").textContent')).toMatch(/A RenderFlex overflowed by/)
    // the hostile email is text in the console and the snapshot, never markup
    await opened.evaluate('document.querySelectorAll("#steps .step")[6].click()')
    expect(await opened.evaluate('document.querySelector("#d-console pre").textContent')).toContain(
      'Signed in as <img src=x onerror=document.body.dataset.pwned=1>***@example.com',
    )
    expect(await opened.evaluate('document.querySelectorAll("img:not([src^=\\"data:\\"])").length')).toBe(0)
    expect(await opened.evaluate('document.body.dataset.pwned ?? null')).toBe(null)
    // search across snapshots and console
    await opened.evaluate(
      '(() => { const s = document.querySelector("#search"); s.value = "Signed in as"; s.dispatchEvent(new Event("input")) })()',
    )
    expect(await opened.evaluate('document.querySelector("#matches").textContent')).toBe('1 step match')
    expect(await opened.evaluate('[...document.querySelectorAll("#steps .step.match")].map((e) => e.dataset.n)')).toEqual(['7'])
  })

  it('show-trace refuses a file that is not a trace, with a one-line error', async () => {
    writeFileSync(join(project.path, 'not.trace'), 'hello\n')
    const result = await inProject(['show-trace', 'not.trace', '--no-open'])
    expect(result.exitCode).toBe(1)
    expect(result.stderr.trim()).toMatch(/^✗ .*not\.trace is not a tapir trace .*Name a file tapir wrote with --trace\.$/)
  })

  it('a tapir:run killed mid-flow leaves a readable trace of the steps before', async () => {
    const file = join(project.path, 'killed.trace')
    const child = spawn(
      process.execPath,
      [BIN, 'tapir:run', '--state', s.state, `--trace=${file}`, 'snap', 'find --key=email', 'wait --text=Never --timeoutMs=60000'],
      {cwd: project.path, env: {...process.env, ...cliEnv()}, stdio: 'ignore'},
    )
    const exited = new Promise((resolve) => child.once('exit', resolve))
    const deadline = Date.now() + 30_000
    while (!(existsSync(file) && readFileSync(file, 'utf8').split('\n').filter(Boolean).length >= 3)) {
      if (Date.now() > deadline) throw new Error('the trace never held two steps')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    child.kill('SIGKILL')
    await exited
    const result = await inProject(['show-trace', file, '--no-open'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/\(2 steps, 0 failed, cut short\)$/)
    const read = parseTrace(readFileSync(file, 'utf8'), file)
    expect(read.steps.map((step) => step.call)).toEqual(['snap', 'find --key=email'])
    expect(read.end).toBeUndefined()
  })

  it('tracing is invisible: a traced run answers what an untraced one does, refs included', async () => {
    // Signs in without looking, opens settings, and only then snaps: every ref a snap mints on
    // the way (the monitors screen) would push the settings screen's numbers up.
    const steps = [
      'find --key=email --as=email',
      'fill --ref=@email --text=ada@example.com',
      'find --key=password --as=pw',
      'fill --ref=@pw --text=hunter22',
      'find --key=signIn --as=go',
      'tap --ref=@go',
      'wait --text=Monitors',
      'navigate --route=/settings',
      'snap --interactiveOnly',
      'find --text=Settings',
    ]
    const runOnce = async (trace: string[]) => {
      expect((await inProject(['restart'])).exitCode).toBe(0)
      const result = await inProject(['tapir:run', ...trace, ...steps])
      expect(result.exitCode, result.stderr).toBe(0)
      return result.stdout.replace(/\d+ ?ms\b/g, 'N ms')
    }
    const file = join(project.path, 'invisible.trace')
    const untraced = await runOnce([])
    const traced = await runOnce([`--trace=${file}`])
    expect(traced).toBe(untraced)
    expect(untraced).toMatch(/\[ref=e\d\]/)
    const read = parseTrace(readFileSync(file, 'utf8'), file)
    expect(read.steps).toHaveLength(steps.length)
    // the tracer still saw each screen, as lines without refs
    expect(read.steps[6]!.snapshot).toContain('Monitors')
    expect(read.steps[6]!.snapshot).not.toMatch(/\[ref=/)
  })

  it('tapir trace start records every process on the session, CLI and tapir:run, until stop', async () => {
    const file = join(project.path, 'session.trace')
    const start = await inProject(['trace', 'start', 'session.trace', '--screenshots'])
    expect(start.exitCode, start.stderr).toBe(0)
    expect(start.stdout.split('\n')[0]).toBe(`✓ Tracing into ${file}`)
    expect((await inProject(['tapir:get_routes'])).exitCode).toBe(0)
    const run = await inProject(['tapir:run', 'find --key=email', 'tap --ref=e999'])
    expect(run.exitCode).toBe(3)
    const stop = await inProject(['trace', 'stop'])
    expect(stop.stdout).toBe(`✓ Stopped tracing into ${file}`)
    expect((await inProject(['tapir:get_routes'])).exitCode).toBe(0)
    const read = parseTrace(readFileSync(file, 'utf8'), file)
    expect(read.header).toMatchObject({source: 'session', device: 'sim'})
    expect(read.steps.map((step) => [step.via, step.call, step.exitCode])).toEqual([
      ['cli', 'tapir:get_routes', 0],
      ['run', 'find --key=email', 0],
      ['run', 'tap --ref=e999', 3],
    ])
    expect(read.end).toBeDefined()
  })

  it('mcp:serve --trace records an agent session through the MCP SDK client; the summary tool names the failed call', async () => {
    const dir = join(project.path, 'mcp-traces')
    const client = await mcpClient(s.state, ['--trace', dir])
    try {
      expect((await client.callTool({name: 'tapir_get_routes', arguments: {}})).isError).toBeFalsy()
      expect((await client.callTool({name: 'tapir_fill', arguments: {ref: 'e999', text: 'hush-typed'}})).isError).toBe(true)
      const summary = await client.callTool({name: 'tapir_trace_summary', arguments: {}})
      expect(summary.isError).toBeFalsy()
      const text = textOf(summary)
      expect(text.split('\n')[0]).toMatch(/^mcp:serve: 2 steps, 1 failed \(tapir \d+\.\d+\.\d+, mcp, app tapir on sim 400x800, started /)
      expect(text).toContain('2. [mcp] tapir_fill {"ref":"e999","text":"***"}: FAILED (exit 3)')
      expect(text).toMatch(/\nFailed: step 2 \(tapir_fill \{"ref":"e999","text":"\*\*\*"\}\): /)
      const missing = await client.callTool({name: 'tapir_trace_summary', arguments: {file: 'nope.trace'}})
      expect(missing.isError).toBe(true)
    } finally {
      await client.close()
    }
    const [file] = readdirSync(dir)
    const text = readFileSync(join(dir, file!), 'utf8')
    expect(text).not.toContain('hush-typed')
    const read = parseTrace(text, file!)
    expect(read.steps.map((step) => step.call.split(' ')[0])).toEqual([
      'tapir_get_routes',
      'tapir_fill',
      'tapir_trace_summary',
      'tapir_trace_summary',
    ])
  })
})
