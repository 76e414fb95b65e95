import {existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync} from 'node:fs'
import {homedir} from 'node:os'
import {dirname, join} from 'node:path'
import {XMLParser} from 'fast-xml-parser'
import {PNG} from 'pngjs'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {tapir, tempDir} from '../helpers/cli.js'
import {mcpClient} from '../helpers/mcp.js'
import {reportBrowser, type ReportBrowser} from '../helpers/report-page.js'
import {simSession, type SimSession} from '../helpers/sim.js'

const FLOWS: Record<string, string> = {
  'flows/pass.tapir':
    '# signs in part way\nexpect --route=/login\nfind --key=email --as=email\nfill --ref=@email --text=ada@example.com\nexpect --label=Email --visible\n',
  'flows/settings/fails-on-expect.tapir':
    'navigate --route=/settings\nexpect --text=Settings\n\nexpect --text=Welcome --timeoutMs=300\nsnap\n',
  'flows/fails-on-until.tapir': 'find --key=signIn --as=go\n# never matches\ntap --ref=@go --until=Nope --untilTimeoutMs=200\n',
}

type Case = {
  '@_name': string
  '@_file': string
  '@_line': string
  '@_time': string
  failure?: {'@_message': string; '#text': string}
  /** Surefire's rerun elements: each failed attempt of a flaky test, with its trace and output inside. */
  flakyFailure?: {'@_message': string; '@_type': string; stackTrace: string; 'system-out': string}
  'system-out': string
}
type Junit = {testsuites: {'@_tests': string; '@_failures': string; testsuite: Array<{'@_name': string; testcase: Case[]}>}}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  isArray: (name) => name === 'testsuite' || name === 'testcase',
})
const readJunit = (path: string): Junit => parser.parse(readFileSync(path, 'utf8')) as Junit
const cases = (junit: Junit): Case[] => junit.testsuites.testsuite.flatMap((suite) => suite.testcase)

describe('tapir test', () => {
  let s: SimSession
  let project: {path: string; remove(): void}
  let browser: ReportBrowser
  const inProject = (args: string[]) => tapir([...args, '--state', s.state], {cwd: project.path})

  beforeAll(async () => {
    s = await simSession({flutterTool: true})
    project = tempDir('tapir-suite-')
    for (const [file, text] of Object.entries(FLOWS)) {
      mkdirSync(join(project.path, file, '..'), {recursive: true})
      writeFileSync(join(project.path, file), text)
    }
    browser = await reportBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    expect(s.sim.violations).toEqual([])
    await s.close()
    project.remove()
  })

  it('runs a folder of flows: one passes, one fails on an expect, one on a tap --until; exit 1 with a line per test', async () => {
    const result = await inProject(['test', 'flows', '--output-dir=out'])
    expect(result.exitCode, result.stderr).toBe(1)
    const lines = result.stdout.split('\n')
    expect(lines[0]).toMatch(/^✗ flows\/fails-on-until\.tapir \(\d+\.\d\d s\)$/)
    expect(lines[1]).toBe(
      '    flows/fails-on-until.tapir:3: step 2 (tap --ref=@go --until=Nope --untilTimeoutMs=200) failed (exit 1): tap answered untilMatched: false, so a strict run fails it',
    )
    expect(lines[2]).toMatch(/^✓ flows\/pass\.tapir \(\d+\.\d\d s\)$/)
    expect(lines[3]).toMatch(/^✗ flows\/settings\/fails-on-expect\.tapir /)
    expect(lines[4]).toMatch(
      /^ {4}flows\/settings\/fails-on-expect\.tapir:4: step 3 \(expect --text=Welcome --timeoutMs=300\) failed \(exit 1\): Expected a widget with text "Welcome" within \d+ ms; saw no such widget\.$/,
    )
    expect(lines[5]).toMatch(/^3 tests: 1 passed, 2 failed, 0 flaky in \d+\.\d\d s$/)
    expect(lines.slice(6)).toEqual(['report: out/junit.xml', 'report: out/report.html', 'report: out/report.json'])
    // each attempt began with a hot restart
    expect(
      s.sim.requests.filter((request) => request.method === 's0.hotRestart' || /hotRestart$/.test(request.method)).length,
    ).toBeGreaterThanOrEqual(3)
  })

  it('writes JUnit that an XML parser reads as three cases and two failures, each with its file and line', () => {
    const junit = readJunit(join(project.path, 'out', 'junit.xml'))
    expect(junit.testsuites['@_tests']).toBe('3')
    expect(junit.testsuites['@_failures']).toBe('2')
    const all = cases(junit)
    expect(all.map((entry) => entry['@_file']).sort()).toEqual(Object.keys(FLOWS).sort())
    const failed = all.filter((entry) => entry.failure)
    expect(failed.map((entry) => [entry['@_file'], entry['@_line']]).sort()).toEqual([
      ['flows/fails-on-until.tapir', '3'],
      ['flows/settings/fails-on-expect.tapir', '4'],
    ])
    for (const entry of failed)
      expect(entry.failure!['@_message']).toMatch(new RegExp(`^${entry['@_file'].replace('.', '\\.')}:\\d+: step \\d \\(.+\\) failed`))
    // GitLab's attachment, named from where tapir test ran
    const untilCase = failed.find((entry) => entry['@_file'] === 'flows/fails-on-until.tapir')!
    expect(untilCase['system-out']).toMatch(/\n\[\[ATTACHMENT\|out\/evidence\/flows_fails-on-until-[0-9a-f]{12}-attempt1\.png\]\]$/)
    const passed = all.find((entry) => !entry.failure)!
    expect(passed['system-out']).toContain('[3] fill --ref=@email --text=ada@example.com (line 4) ok in')
    expect(Number(passed['@_time'])).toBeGreaterThan(0)
  })

  it('names no absolute path of this machine in any report', () => {
    for (const file of ['junit.xml', 'report.html', 'report.json']) {
      const text = readFileSync(join(project.path, 'out', file), 'utf8')
      expect(text, file).not.toContain(project.path)
      expect(text, file).not.toContain(homedir())
    }
    const report = JSON.parse(readFileSync(join(project.path, 'out', 'report.json'), 'utf8'))
    const shots = report.tests.flatMap((test: {attempts: Array<{evidence?: {screenshot?: string}}>}) =>
      test.attempts.flatMap((attempt) => (attempt.evidence?.screenshot ? [attempt.evidence.screenshot] : [])),
    )
    expect(shots.sort()).toEqual([
      expect.stringMatching(/^evidence\/flows_fails-on-until-[0-9a-f]{12}-attempt1\.png$/),
      expect.stringMatching(/^evidence\/flows_settings_fails-on-expect-[0-9a-f]{12}-attempt1\.png$/),
    ])
    expect(readdirSync(join(project.path, 'out', 'evidence')).sort()).toEqual(
      shots.map((shot: string) => shot.slice('evidence/'.length)).sort(),
    )
  })

  it('names no folder of this machine either for a step that writes outside the project, or a session file elsewhere', async () => {
    const outside = tempDir('tapir-outside-')
    try {
      const shot = join(outside.path, 'abs.png')
      writeFileSync(join(project.path, 'outside.tapir'), `screenshot --output=${shot}\nexpect --text=Nope --timeoutMs=100\n`)
      const result = await inProject(['test', 'outside.tapir', '--fresh=none', '--output-dir=outside-out'])
      expect(result.exitCode).toBe(1)
      for (const file of ['junit.xml', 'report.html', 'report.json']) {
        const text = readFileSync(join(project.path, 'outside-out', file), 'utf8')
        expect(text, file).not.toContain(outside.path)
        expect(text, file).not.toContain(dirname(s.state))
        // The step as written, its temp folder named for what it is (escaped in XML and HTML).
        expect(text, file).toMatch(/screenshot --output=(<|&lt;)tmp(>|&gt;)\//)
      }
    } finally {
      outside.remove()
    }
  })

  it("shows the failing step's screenshot, snapshot and exceptions in the HTML, as Chromium renders it", async () => {
    const page = await browser.open(join(project.path, 'out', 'report.html'))
    expect(page.requests.filter((url) => !url.startsWith('file:') && !url.startsWith('data:'))).toEqual([])
    const failing = await page.evaluate<{images: number[]; snapshot: string; exceptions: string; headline: string}>(
      `(() => {
        const test = [...document.querySelectorAll('details.test.failed')].find((d) => d.textContent.includes('fails-on-expect'))
        return {
          images: [...test.querySelectorAll('img.screenshot')].map((img) => img.naturalWidth),
          snapshot: test.querySelector('pre.snapshot').textContent,
          exceptions: test.querySelector('pre.entries').textContent,
          headline: document.querySelector('header h1').textContent,
        }
      })()`,
    )
    expect(failing.headline).toBe('2 of 3 tests failed')
    expect(failing.images).toHaveLength(1)
    expect(failing.images[0]).toBeGreaterThan(100)
    expect(failing.snapshot).toContain('heading "Settings"')
    expect(failing.exceptions).toContain('RenderFlex overflowed')
    const png = PNG.sync.read(await page.screenshot(join(project.path, 'page.png')))
    // the header, top left, is the failed verdict's red (#b3261e)
    const at = (x: number, y: number) => Array.from(png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3))
    expect(at(5, 5)).toEqual([0xb3, 0x26, 0x1e])
    expect(png.height).toBeGreaterThan(600)
  })

  it('splits the tests into disjoint shards that cover all, and merges their reports into one', async () => {
    const one = await inProject(['test', 'flows', '--shard=1/2', '--output-dir=shard-1', '--reporter=json'])
    const two = await inProject(['test', 'flows', '--shard=2/2', '--output-dir=shard-2', '--reporter=json'])
    const files = (dir: string) =>
      (JSON.parse(readFileSync(join(project.path, dir, 'report.json'), 'utf8')) as {tests: Array<{file: string}>}).tests.map(
        (test) => test.file,
      )
    const first = files('shard-1')
    const second = files('shard-2')
    expect(first.length).toBeGreaterThan(0)
    expect(second.length).toBeGreaterThan(0)
    expect(first.filter((file) => second.includes(file))).toEqual([])
    expect([...first, ...second].sort()).toEqual(Object.keys(FLOWS).sort())
    expect([one.exitCode, two.exitCode]).toContain(1)
    const merged = await inProject(['merge-reports', 'shard-1', 'shard-2', '--output-dir=merged'])
    expect(merged.exitCode, merged.stderr).toBe(1)
    expect(merged.stdout).toMatch(/^merged 2 reports\n3 tests: 1 passed, 2 failed, 0 flaky in /)
    const junit = readJunit(join(project.path, 'merged', 'junit.xml'))
    expect(cases(junit)).toHaveLength(3)
    expect(cases(junit).filter((entry) => entry.failure)).toHaveLength(2)
    const report = JSON.parse(readFileSync(join(project.path, 'merged', 'report.json'), 'utf8'))
    const shot = report.tests.find((test: {file: string}) => test.file.includes('fails-on-expect')).attempts[0].evidence.screenshot
    expect(shot).toMatch(/^\.\.\/shard-[12]\/evidence\/flows_settings_fails-on-expect-[0-9a-f]{12}-attempt1\.png$/)
    // each failed test's trace is copied in and linked, as its shard's report linked it
    const failedTraces = report.tests
      .filter((test: {status: string}) => test.status === 'failed')
      .map((test: {attempts: Array<{trace?: string}>}) => test.attempts[0]!.trace)
    expect(failedTraces).toEqual([expect.stringMatching(/^traces\/flows_.*-attempt1\.trace$/), expect.stringMatching(/^traces\/flows_/)])
    for (const trace of failedTraces) {
      const shard = existsSync(join(project.path, 'shard-1', trace)) ? 'shard-1' : 'shard-2'
      expect(readFileSync(join(project.path, 'merged', trace))).toEqual(readFileSync(join(project.path, shard, trace)))
    }
    expect(readFileSync(join(project.path, 'merged', 'junit.xml'), 'utf8')).toContain(`trace: merged/${failedTraces[0]}`)
    const page = await browser.open(join(project.path, 'merged', 'report.html'))
    expect(await page.evaluate<number>(`document.querySelectorAll('details.test img.screenshot').length`)).toBe(2)
    expect(await page.evaluate<string[]>(`[...document.querySelectorAll('p.trace a')].map((a) => a.getAttribute('href'))`)).toEqual(
      expect.arrayContaining(failedTraces),
    )
  })

  it('balances the shards by the durations of a last report', async () => {
    const durations = join(project.path, 'durations.json')
    writeFileSync(
      durations,
      JSON.stringify({
        tests: [
          {file: 'flows/pass.tapir', durationMs: 9000},
          {file: 'flows/fails-on-until.tapir', durationMs: 10},
          {file: 'flows/settings/fails-on-expect.tapir', durationMs: 10},
        ],
      }),
    )
    const one = await inProject(['test', 'flows', '--shard=1/2', `--durations=${durations}`, '--reporter=json', '--output-dir=d1'])
    expect(one.stdout).toMatch(/^1 test: 1 passed/)
    const two = await inProject(['test', 'flows', '--shard=2/2', `--durations=${durations}`, '--reporter=json', '--output-dir=d2'])
    expect(two.stdout).toMatch(/^2 tests: 0 passed, 2 failed/)
  })

  it('marks a flow that passes on its retry as flaky, and exits 0', async () => {
    writeFileSync(join(project.path, 'flaky.tapir'), 'observe --limit=1\nexpect --route=/login\n')
    s.sim.setFaults({malformedOn: 'ext.tapir.observe'})
    // The first attempt's failure is answered for: once tapir takes its screenshot, the fault is gone.
    const push = s.sim.requests.push.bind(s.sim.requests)
    s.sim.requests.push = (...items) => {
      if (items.some((item) => item.method === 'ext.tapir.screenshot')) s.sim.setFaults({malformedOn: null})
      return push(...items)
    }
    try {
      const result = await inProject(['test', 'flaky.tapir', '--retries=1', '--output-dir=flaky'])
      expect(result.exitCode, result.stdout).toBe(0)
      expect(result.stdout.split('\n')[0]).toMatch(/^~ flaky\.tapir \(\d+\.\d\d s, flaky: passed on attempt 2\)$/)
      expect(result.stdout).toContain('1 test: 0 passed, 0 failed, 1 flaky')
      const report = JSON.parse(readFileSync(join(project.path, 'flaky', 'report.json'), 'utf8'))
      expect(report.tests[0].status).toBe('flaky')
      expect(report.tests[0].attempts.map((attempt: {passed: boolean}) => attempt.passed)).toEqual([false, true])
      const junit = readJunit(join(project.path, 'flaky', 'junit.xml'))
      expect(cases(junit)[0]!.failure).toBeUndefined()
      // As Surefire writes a test that passed on a rerun, so Jenkins and action-junit-report see it flaky.
      expect(cases(junit)[0]!.flakyFailure).toMatchObject({
        '@_message': expect.stringMatching(/^flaky\.tapir:1: step 1 \(observe --limit=1\) failed/),
        '@_type': 'StepFailed',
        'system-out': expect.stringMatching(/^\[1\] observe --limit=1 \(line 1\) failed \(exit 3\)/),
      })
      expect(cases(junit)[0]!['system-out']).toMatch(/^flaky: passed on attempt 2 of 2/)
      const without = await inProject(['test', 'flaky.tapir', '--output-dir=flaky'])
      expect(without.exitCode).toBe(0)
    } finally {
      s.sim.requests.push = push
      s.sim.setFaults({malformedOn: null})
    }
  })

  it('fails a test past its timeout at the step it was in; --grep keeps some files, --bail stops at the first failure', async () => {
    writeFileSync(join(project.path, 'slow.tapir'), 'expect --route=/login\nwait --text=Nope --timeoutMs=20000\nsnap\n')
    const slow = await inProject(['test', 'slow.tapir', '--test-timeout=1000', '--reporter=list,json', '--output-dir=slow'])
    expect(slow.exitCode).toBe(1)
    expect(slow.stdout.split('\n')[1]).toBe(
      '    slow.tapir:2: the test timed out after 1000 ms in step 2 (wait --text=Nope --timeoutMs=20000).',
    )
    const report = JSON.parse(readFileSync(join(project.path, 'slow', 'report.json'), 'utf8'))
    expect(report.tests[0].attempts[0].steps.map((step: {step: string}) => step.step)).toEqual(['expect --route=/login'])
    const json = await inProject(['test', 'flows/pass.tapir', '--json', '--reporter=list'])
    expect(json.exitCode).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({
      total: 1,
      passed: 1,
      failed: 0,
      flaky: 0,
      tests: [{file: 'flows/pass.tapir', status: 'passed', attempts: 1}],
      reports: [],
    })
    const bail = await inProject(['test', 'flows', '--grep=fails-on', '--bail', '--reporter=list'])
    expect(bail.exitCode).toBe(1)
    expect(bail.stdout).toMatch(/^✗ flows\/fails-on-until\.tapir .*\n.*\n1 test: 0 passed, 1 failed, 0 flaky in /)
  })

  it('masks a value a flow reads from the environment in every report, evidence included', async () => {
    writeFileSync(
      join(project.path, 'secret.tapir'),
      'find --key=email --as=email\nfill --ref=@email --text=${env.TAPIR_SECRET}\nexpect --text=${env.TAPIR_SECRET} --count=5 --timeoutMs=0\n',
    )
    const result = await tapir(['test', 'secret.tapir', '--output-dir=secret', '--state', s.state], {
      cwd: project.path,
      env: {TAPIR_SECRET: 'sesame-4711@example.com'},
    })
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toContain('***')
    const report = JSON.parse(readFileSync(join(project.path, 'secret', 'report.json'), 'utf8'))
    expect(report.tests[0].attempts[0].evidence.snapshot).toContain('***')
    for (const file of ['junit.xml', 'report.html', 'report.json']) {
      expect(readFileSync(join(project.path, 'secret', file), 'utf8'), file).not.toContain('sesame-4711')
    }
    expect(result.stdout + result.stderr).not.toContain('sesame-4711')
  })

  it('offers expect over MCP: a held condition is its JSON, a failed one an isError naming what it saw', async () => {
    const client = await mcpClient(s.state)
    try {
      const held = await client.callTool({name: 'tapir_expect', arguments: {text: 'Sign in', count: 2}})
      expect(held.isError).toBeFalsy()
      const text = (result: typeof held) => (result.content as Array<{text: string}>)[0]!.text
      expect(JSON.parse(text(held))).toMatchObject({passed: true, expected: '2 widgets with text "Sign in"'})
      const failed = await client.callTool({name: 'tapir_expect', arguments: {route: '/settings', timeoutMs: 0}})
      expect(failed.isError).toBe(true)
      expect(JSON.parse(text(failed).split('\n')[0]!)).toMatchObject({passed: false, saw: 'the route "/login"'})
      expect(JSON.parse(text(failed).split('\n')[1]!)).toMatchObject({error: {exitCode: 1}})
    } finally {
      await client.close()
    }
  })

  it('never replaces a report file it did not write: refused before any test runs, every byte kept', async () => {
    for (const [file, mine] of [
      ['report.json', '{"my": "precious data"}\n'],
      ['report.html', '<html>my site</html>\n'],
      ['junit.xml', '<?xml version="1.0"?>\n<testsuites name="other tool"/>\n'],
    ] as const) {
      const folder = join(project.path, `theirs-${file}`)
      mkdirSync(folder)
      writeFileSync(join(folder, file), mine)
      for (const args of [
        ['test', 'flows/pass.tapir', '--fresh=none', `--output-dir=${folder}`],
        ['merge-reports', 'out', `--output-dir=${folder}`],
      ]) {
        const result = await inProject(args)
        expect(result.exitCode, args.join(' ')).toBe(1)
        expect(result.stdout).toBe('')
        expect(result.stderr).toBe(
          `✗ Refusing to replace ${join(folder, file)}: it exists and is not ${file === 'junit.xml' ? 'a JUnit report of tapir test' : 'a tapir test report'} tapir wrote. Remove it, or choose another path.`,
        )
        expect(readFileSync(join(folder, file), 'utf8')).toBe(mine)
      }
    }
    // Its own reports it replaces: the earlier run's out/ again.
    expect((await inProject(['test', 'flows/pass.tapir', '--output-dir=out-again'])).exitCode).toBe(0)
    expect((await inProject(['test', 'flows/pass.tapir', '--output-dir=out-again'])).exitCode).toBe(0)
  }, 120_000) // eight runs of the CLI, one after another: time for a loaded machine

  it('refuses bad input with one line and exit 1', async () => {
    for (const [args, message] of [
      [['test', 'nowhere'], /^✗ Cannot read nowhere: .*Give a \*\.tapir file or a folder of them\.$/],
      [['test', 'flows', '--shard=3/2'], /^✗ --shard=3\/2: give i\/n/],
      [['test', 'flows', '--reporter=xml'], /^✗ --reporter=xml: give a comma-separated list of list, junit, html, json/],
      [['test', 'flows', '--grep=('], /^✗ --grep=\( is not a regular expression/],
      [['test', 'flows', '--bogus'], /^✗ Nonexistent flag: --bogus/],
      [['merge-reports', 'flows'], /^✗ Cannot read flows\/report\.json: /],
    ] as const) {
      const result = await inProject([...args])
      expect(result.exitCode, args.join(' ')).toBe(1)
      expect(result.stderr, args.join(' ')).toMatch(message)
      expect(result.stderr.split('\n')).toHaveLength(1)
    }
  })
})
