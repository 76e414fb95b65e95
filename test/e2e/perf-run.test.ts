import {existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {BIN, tapir, tempDir} from '../helpers/cli.js'
import {McpTestClient} from '../helpers/mcp.js'
import {simSession, type SimSession} from '../helpers/sim.js'

const SECRET = 'correct-horse-42'
const ENV = {PERF_PASSWORD: SECRET}

/** A scenario with setup (hot restart), a fragment with a secret param, and targets of each kind. */
function writeScenarios(dir: string): void {
  mkdirSync(join(dir, 'fragments'), {recursive: true})
  writeFileSync(
    join(dir, 'fragments', 'login.yaml'),
    `params:
  email: {}
  password: {secret: true}
when: {text: Sign in, unless_text: Monitors, timeout_ms: 5000}
steps:
  - fill: {target: {key: email}, text: "\${email}"}
  - fill: {target: {label: Password}, text: "\${password}"}
  - tap: {target: {key: signIn}}
`,
  )
  writeFileSync(
    join(dir, 'list.yaml'),
    `name: list
platforms: [sim]
repeat: 3
setup:
  - hot_restart
  - include: fragments/login.yaml
    with: {email: ada@example.com, password: "\${env.PERF_PASSWORD}"}
  - wait_for_text: Monitors
steps:
  - scroll: {target: {text: API}, dy: 400}
  - scroll: {target: {text: API}, dy: -300}
  - tap: {target: {role: button, name: Web}}
`,
  )
  writeFileSync(join(dir, 'lost.yaml'), 'name: lost\nplatforms: [sim]\nrepeat: 1\nsteps:\n  - tap: {target: {text: Nowhere to be seen}}\n')
  writeFileSync(
    join(dir, 'five.yaml'),
    'name: Five Problems\nrepeat: -1\nflavour: mint\nsteps:\n  - tap: {target: {text: A, label: B}}\n  - wheel: {target: {key: list}, dy: 5}\n',
  )
}

/** Every file under a folder, as text. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, {recursive: true, withFileTypes: true})
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
}

describe('tapir:perf_run and tapir:perf_compare against the sim', () => {
  const dir = tempDir('tapir-perf-')
  let plain: SimSession
  let regressed: SimSession
  const outputs: string[] = []
  const run = async (s: SimSession, args: string[]) => {
    const result = await s.run(args, {env: ENV})
    outputs.push(result.stdout, result.stderr)
    return result
  }
  const file = (name: string) => join(dir.path, 'out', name)

  beforeAll(async () => {
    writeScenarios(dir.path)
    plain = await simSession({flutterTool: true})
    regressed = await simSession({flutterTool: true, perfRegression: true})
  })
  afterAll(async () => {
    expect(plain.sim.violations).toEqual([])
    expect(regressed.sim.violations).toEqual([])
    await plain.close()
    await regressed.close()
    dir.remove()
  })

  it('runs 3 repeats from a hot restart each and writes the documented run file', async () => {
    const result = await run(plain, ['tapir:perf_run', join(dir.path, 'list.yaml'), '--label=before', `--out=${join(dir.path, 'out')}`])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toBe(
      `✓ perf_run list: 3 repeat(s) measured, 0 refused, ${JSON.parse(readFileSync(file('list-before.json'), 'utf8')).summary.frames.painted} painted frames (median); wrote ${file('list-before.json')}`,
    )
    const progress = result.stderr.split('\n')
    expect(progress).toHaveLength(3)
    progress.forEach((line, i) => expect(line).toMatch(new RegExp(`^repeat ${i + 1}/3 \\(attribution\\) \\.\\.\\. \\d+ painted frames$`)))
    expect(plain.sim.requests.filter((request) => request.method.endsWith('.hotRestart'))).toHaveLength(3)

    const runFile = JSON.parse(readFileSync(file('list-before.json'), 'utf8'))
    expect(Object.keys(runFile)).toEqual(['scenario', 'label', 'env', 'summary', 'insights', 'repeats'])
    expect(runFile.scenario).toMatchObject({name: 'list', platforms: ['sim'], repeat: 3, thresholds: {warn: 10, error: 25}})
    expect(runFile.label).toBe('before')
    expect(runFile.env).toMatchObject({
      buildMode: 'debug',
      device: 'sim',
      target: 'sim',
      emulator: false,
      restartMode: 'hot_restart',
      renderer: 'unknown',
      host: {os: expect.any(String), cores: expect.any(Number)},
    })
    const {summary} = runFile
    expect(summary).toMatchObject({repeats: 3, refused: 0, frames: {painted: expect.any(Number), count: expect.any(Number)}})
    expect(summary.perFrame['blocks.SparkBar']).toBeGreaterThan(0)
    expect(summary.perFrame['magic.routeChanges']).toBeGreaterThanOrEqual(0)
    expect(summary.ms['buildMs.p50']).toBeGreaterThan(0)
    expect(summary.spread.perFrame['blocks.SparkBar']).toEqual({
      min: expect.any(Number),
      max: expect.any(Number),
      rangePct: expect.any(Number),
    })
    expect(runFile.repeats).toHaveLength(3)
    for (const [index, repeat] of runFile.repeats.entries()) {
      expect(repeat).toMatchObject({
        series: 'attribution',
        index,
        refused: false,
        mode: 'attribution',
        summary: {frames: {painted: expect.any(Number)}},
      })
      expect(repeat.resolves.map((r: {phase: string}) => r.phase)).toEqual(['beforeBegin', 'inWindow', 'inWindow'])
    }
  })

  it('prints the run file minus repeats, plus path, with --json', async () => {
    const result = await run(plain, [
      'tapir:perf_run',
      '--scenario',
      join(dir.path, 'list.yaml'),
      '--label=again',
      `--out=${join(dir.path, 'out')}`,
      '--repeat=2',
      '--json',
    ])
    expect(result.exitCode).toBe(0)
    const answer = JSON.parse(result.stdout)
    expect(answer).not.toHaveProperty('repeats')
    expect(answer.path).toBe(file('list-again.json'))
    expect(answer.summary.repeats).toBe(2)
    expect(answer.insights.length).toBeLessThanOrEqual(6)
  })

  it('lists every problem of an invalid scenario at once, exit 1, before touching the app', async () => {
    const before = plain.sim.requests.length
    const result = await run(plain, ['tapir:perf_run', join(dir.path, 'five.yaml')])
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr.split('\n')).toEqual([
      '✗ Invalid perf scenario:',
      '- scenario: unknown key flavour (allowed: name, viewport, platforms, setup, steps, repeat, thresholds, variants)',
      '- name: required, lower-case letters, digits, _ and - only (it names the run file; got "Five Problems")',
      '- repeat: must be a positive integer (got -1)',
      '- steps[0] (tap).target: a target has exactly one of text, label, role, key (got text, label)',
      '- steps[1] (wheel): wheel runs only on Chrome. Add `only: [chrome]`',
    ])
    expect(plain.sim.requests.length).toBe(before)
  })

  it('tells what is wrong with a scenario file before it looks for the app', async () => {
    const noApp = ['--state', join(dir.path, 'no-session', 'state.json')]
    const invalid = await tapir(['tapir:perf_run', join(dir.path, 'five.yaml'), ...noApp])
    expect(invalid).toMatchObject({exitCode: 1, stdout: ''})
    expect(invalid.stderr.split('\n')[0]).toBe('✗ Invalid perf scenario:')
    const missing = await tapir(['tapir:perf_run', join(dir.path, 'nope.yaml'), ...noApp])
    expect(missing.stderr).toBe(`✗ Invalid perf scenario:\n- ${join(dir.path, 'nope.yaml')}: cannot read (no such file)`)
    // A sound file then meets the missing app.
    const sound = await tapir(['tapir:perf_run', join(dir.path, 'lost.yaml'), ...noApp])
    expect(sound).toMatchObject({exitCode: 1, stdout: ''})
    expect(sound.stderr).toMatch(/^✗ No running Flutter app detected/)
  })

  it('fails a step whose target matches nothing with exit 1 and a Diagnostics line', async () => {
    const result = await run(plain, ['tapir:perf_run', join(dir.path, 'lost.yaml'), `--out=${join(dir.path, 'out')}`])
    expect(result.exitCode).toBe(1)
    expect(result.stderr.split('\n')).toEqual([
      '✗ lost: steps[0] (tap) failed: target {text: "Nowhere to be seen"} matched nothing within 3 s',
      expect.stringMatching(/^Diagnostics: route=\/\S+; last navigate=none; exceptions=none$/),
    ])
    expect(existsSync(file('lost-run.json'))).toBe(false)
  })

  it('interleaves --timing and --against series in alternating order, one file each; --semantics-pass measures with the tree released', async () => {
    writeFileSync(join(dir.path, 'base.yaml'), readFileSync(join(dir.path, 'list.yaml'), 'utf8').replace('name: list', 'name: base'))
    const result = await run(plain, [
      'tapir:perf_run',
      join(dir.path, 'list.yaml'),
      '--against',
      join(dir.path, 'base.yaml'),
      '--timing',
      '--semantics-pass',
      '--repeat=2',
      '--label=pair',
      `--out=${join(dir.path, 'out')}`,
    ])
    expect(result.exitCode).toBe(0)
    const order = result.stderr.split('\n').map((line) => line.replace(/ \.\.\. .*$/, ''))
    expect(order).toEqual([
      'repeat 1/2 list (attribution)',
      'repeat 1/2 list (timing)',
      'repeat 1/2 list (semanticsOff)',
      'repeat 1/2 base (attribution)',
      'repeat 1/2 base (timing)',
      'repeat 1/2 base (semanticsOff)',
      'repeat 2/2 base (semanticsOff)',
      'repeat 2/2 base (timing)',
      'repeat 2/2 base (attribution)',
      'repeat 2/2 list (semanticsOff)',
      'repeat 2/2 list (timing)',
      'repeat 2/2 list (attribution)',
    ])
    const list = JSON.parse(readFileSync(file('list-pair.json'), 'utf8'))
    const base = JSON.parse(readFileSync(file('base-pair.json'), 'utf8'))
    expect(list).toMatchObject({
      interleavedWith: 'base',
      semanticsPass: 'measured',
      summary: {repeats: 2, timing: {repeats: 2, refused: 0}},
      semanticsOff: {summary: {repeats: 2, refused: 0}},
    })
    expect(list).not.toHaveProperty('semanticsPassReason')
    const released = list.semanticsOff.repeats as Array<{env: {semanticsEnabled: boolean}; summary: {frames: {buildMs: {worst: number}}}}>
    expect(released.map((r) => r.env.semanticsEnabled)).toEqual([false, false])
    // Without the tree the pipeline skips the semantics update of every rebuilt node: the heaviest frame is lighter.
    const held = list.repeats.find((r: {series: string}) => r.series === 'attribution')
    expect(released[0]!.summary.frames.buildMs.worst).toBeLessThan(held.summary.frames.buildMs.worst)
    expect(base).toMatchObject({interleavedWith: 'list', summary: {repeats: 2, timing: {repeats: 2}}})
    expect(list.summary.timing.ms['buildMs.p50']).toBeGreaterThan(0)
    expect(list.repeats.map((r: {series: string}) => r.series)).toEqual([
      'attribution',
      'timing',
      'semanticsOff',
      'semanticsOff',
      'timing',
      'attribution',
    ])
    const compared = await tapir(['tapir:perf_compare', file('base-pair.json'), file('list-pair.json'), '--json'])
    expect(JSON.parse(compared.stdout).timing).toEqual({gated: true})
  })

  it('--semantics-pass on a web app is unsupported: the web engine keeps semantics on, and the reason says so', async () => {
    const web = await simSession({mode: 'dwds', flutterTool: true})
    try {
      const result = await run(web, [
        'tapir:perf_run',
        join(dir.path, 'list.yaml'),
        '--semantics-pass',
        '--repeat=1',
        '--label=web',
        `--out=${join(dir.path, 'out')}`,
      ])
      expect(result.exitCode, result.stderr).toBe(0)
      const runFile = JSON.parse(readFileSync(file('list-web.json'), 'utf8'))
      expect(runFile).toMatchObject({semanticsPass: 'unsupported', env: {platform: 'web', isWeb: true, renderer: 'canvaskit'}})
      expect(runFile).not.toHaveProperty('semanticsOff')
      expect(runFile.semanticsPassReason).toBe(
        'Semantics stay on after the release: on web the engine keeps semantics on once it has received a semantics tree, and this app sent one with its first frame, so the tree stays whatever tapir releases.',
      )
      expect(web.sim.violations).toEqual([])
    } finally {
      await web.close()
    }
  })

  it('a text target past index 0 is found with find_by_text: the third "Pause" pauses the third monitor', async () => {
    writeFileSync(
      join(dir.path, 'third.yaml'),
      `name: third
platforms: [sim]
repeat: 1
setup:
  - hot_restart
  - fill: {target: {key: email}, text: ada@example.com}
  - fill: {target: {key: password}, text: hunter22}
  - tap: {target: {key: signIn}}
  - wait_for_text: Monitors
steps:
  - tap: {target: {text: Pause, index: 2}}
`,
    )
    const result = await run(plain, ['tapir:perf_run', join(dir.path, 'third.yaml'), `--out=${join(dir.path, 'out')}`])
    expect(result.exitCode, result.stderr).toBe(0)
    const rows = (await run(plain, ['tapir:snap', '--interactiveOnly'])).stdout.match(/button "(Pause|Resume)"/g)
    expect(rows!.slice(0, 4)).toEqual(['button "Pause"', 'button "Pause"', 'button "Resume"', 'button "Pause"'])
    const found = plain.sim.requests.filter((request) => request.method === 'ext.tapir.find_by_text')
    expect(found.at(-1)!.params).toMatchObject({text: 'Pause', exact: 'true'})
  })

  it('records refused repeats, writes the file and exits 1 when every repeat was refused; perf_compare refuses that run', async () => {
    writeFileSync(join(dir.path, 'idle.yaml'), 'name: idle\nplatforms: [sim]\nrepeat: 2\nsteps:\n  - wait: 20\n')
    const result = await run(plain, ['tapir:perf_run', join(dir.path, 'idle.yaml'), `--out=${join(dir.path, 'out')}`])
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe('')
    const lines = result.stderr.split('\n')
    expect(lines.slice(0, 2).map((line) => line.slice(0, 45))).toEqual([
      'repeat 1/2 (attribution) ... refused: The eng',
      'repeat 2/2 (attribution) ... refused: The eng',
    ])
    expect(lines[2]).toBe(
      `✗ perf_run idle: every repeat was refused (2), so nothing was measured; wrote ${file('idle-run.json')}. Bring the app to the front and rerun.`,
    )
    const runFile = JSON.parse(readFileSync(file('idle-run.json'), 'utf8'))
    expect(runFile.summary).toMatchObject({repeats: 0, refused: 2, perFrame: {}})
    expect(runFile.repeats.map((r: {refused: boolean}) => r.refused)).toEqual([true, true])
    const compared = await tapir(['tapir:perf_compare', file('list-before.json'), file('idle-run.json')])
    expect(compared).toMatchObject({
      exitCode: 1,
      stderr: '✗ Run B has no measured repeat: every one was refused (2), so there is nothing to compare. Rerun it with the page in front.',
    })
  })

  it('refuses a platform the scenario does not list', async () => {
    const result = await run(plain, ['tapir:perf_run', join(dir.path, 'list.yaml'), '--platform=ios'])
    expect(result).toMatchObject({exitCode: 1, stderr: '✗ Scenario list does not run on ios (platforms: sim).'})
  })

  it('refuses an --against scenario of the same name before touching the app: each scenario gets a file of its own', async () => {
    writeFileSync(join(dir.path, 'twin.yaml'), readFileSync(join(dir.path, 'list.yaml'), 'utf8'))
    const before = plain.sim.requests.length
    const result = await run(plain, [
      'tapir:perf_run',
      join(dir.path, 'list.yaml'),
      '--against',
      join(dir.path, 'twin.yaml'),
      '--label=twins',
      `--out=${join(dir.path, 'out')}`,
    ])
    expect(result).toMatchObject({
      exitCode: 1,
      stderr:
        '✗ The baseline (against) is a scenario named "list" too, so both would be written to list-twins.json. Give the baseline scenario another name.',
    })
    expect(plain.sim.requests.length).toBe(before)
    expect(existsSync(file('list-twins.json'))).toBe(false)
  })

  it('perf_compare: the regression knob comes out an error-level regression, exit 1 (table and --json)', async () => {
    expect(
      (await run(regressed, ['tapir:perf_run', join(dir.path, 'list.yaml'), '--label=after', `--out=${join(dir.path, 'out')}`])).exitCode,
    ).toBe(0)
    // No session at all: perf_compare reads two files and nothing else.
    const table = await tapir(['tapir:perf_compare', file('list-before.json'), file('list-after.json')], {cwd: dir.path})
    expect(table.exitCode).toBe(1)
    const lines = table.stdout.split('\n')
    expect(lines[0]).toBe('perf_compare: regressed (per painted frame; warn +10%, error +25%)')
    expect(lines[1]).toMatch(/^painted frames: \d+ -> \d+ \(info, not gated\)$/)
    expect(lines[2]).toBe(`${'metric'.padEnd(44)}         A         B    delta`)
    expect(lines[3]).toMatch(/^blocks\.SparkBar {29}\s+\d+\.\d\d\s+\d+\.\d\d\s+\+\d+\.\d% \(error\)$/)
    expect(lines.at(-1)).toMatch(/^\d+ metrics unchanged\. Milliseconds were not compared/)

    const json = await tapir(['tapir:perf_compare', '--a', file('list-before.json'), '--b', file('list-after.json'), '--json'], {
      cwd: dir.path,
    })
    expect(json.exitCode).toBe(1)
    const comparison = JSON.parse(json.stdout)
    expect(comparison).toMatchObject({verdict: 'regressed', thresholds: {warn: 10, error: 25}, timing: {gated: false}})
    expect(comparison.rows[0]).toMatchObject({metric: 'blocks.SparkBar', verdict: 'regressed', severity: 'error'})
    expect(comparison.rows[0].deltaPct).toBeGreaterThan(25)
  })

  it('perf_compare: two runs without the knob come out unchanged, exit 0', async () => {
    const result = await tapir(['tapir:perf_compare', file('list-before.json'), file('list-again.json')], {cwd: dir.path})
    expect(result.exitCode).toBe(0)
    expect(result.stdout.split('\n')[0]).toBe('perf_compare: unchanged (per painted frame; warn +10%, error +25%)')
    const json = JSON.parse((await tapir(['tapir:perf_compare', file('list-before.json'), file('list-again.json'), '--json'])).stdout)
    expect(json).toMatchObject({verdict: 'unchanged', rows: []})
  })

  describe('over MCP, through the SDK client', () => {
    let client: Client
    const textOf = (result: unknown) => (result as {content: Array<{text: string}>}).content[0]!.text
    beforeAll(async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp:serve', '--state', plain.state],
        env: {...process.env, ...ENV, NODE_ENV: 'production'} as Record<string, string>,
        stderr: 'pipe',
      })
      client = new McpTestClient()
      await client.connect(transport)
    })
    afterAll(async () => {
      await client.close()
    })

    it('tapir_perf_run answers the run file minus repeats, plus path, with json', async () => {
      const result = await client.callTool({
        name: 'tapir_perf_run',
        arguments: {scenario: join(dir.path, 'list.yaml'), label: 'mcp', out: join(dir.path, 'out'), repeat: 1, json: true},
      })
      expect(result.isError).toBeFalsy()
      const text = textOf(result)
      outputs.push(text)
      const answer = JSON.parse(text)
      expect(answer).toMatchObject({label: 'mcp', path: file('list-mcp.json'), summary: {repeats: 1, refused: 0}})
      expect(answer).not.toHaveProperty('repeats')
      expect(text).not.toContain(SECRET)
      const line = textOf(
        await client.callTool({
          name: 'tapir_perf_run',
          arguments: {scenario: join(dir.path, 'list.yaml'), label: 'mcp', out: join(dir.path, 'out'), repeat: 1},
        }),
      )
      outputs.push(line)
      expect(line).toMatch(/^✓ perf_run list: 1 repeat\(s\) measured, 0 refused, \d+ painted frames \(median\); wrote /)
    })

    it('tapir_perf_run and tapir_perf_compare take html, a path, and their answers name the report', async () => {
      const {tools} = await client.listTools()
      for (const name of ['tapir_perf_run', 'tapir_perf_compare'])
        expect(tools.find((tool) => tool.name === name)!.inputSchema.properties).toHaveProperty(
          'html',
          expect.objectContaining({type: 'string'}),
        )
      const runReport = file('list-mcp.html')
      const line = textOf(
        await client.callTool({
          name: 'tapir_perf_run',
          arguments: {scenario: join(dir.path, 'list.yaml'), label: 'mcp', out: join(dir.path, 'out'), repeat: 1, html: runReport},
        }),
      )
      outputs.push(line)
      expect(line).toMatch(new RegExp(`; wrote ${file('list-mcp.json')}; report ${runReport}$`))
      expect(readFileSync(runReport, 'utf8')).toMatch(/^<!DOCTYPE html>\n<!-- tapir perf report -->\n/)
      const compareReport = file('compare-mcp.html')
      const json = await client.callTool({
        name: 'tapir_perf_compare',
        arguments: {a: file('list-before.json'), b: file('list-mcp.json'), json: true, html: compareReport},
      })
      outputs.push(textOf(json))
      expect(JSON.parse(textOf(json))).toMatchObject({verdict: expect.any(String), html: compareReport})
      const table = textOf(
        await client.callTool({
          name: 'tapir_perf_compare',
          arguments: {a: file('list-before.json'), b: file('list-mcp.json'), html: compareReport},
        }),
      )
      expect(table.split('\n').at(-1)).toBe(`report: ${compareReport}`)
      expect(readFileSync(compareReport, 'utf8')).toContain('perf_compare: ')
    })

    it('tapir_perf_run reports an invalid scenario as an error result', async () => {
      const result = await client.callTool({name: 'tapir_perf_run', arguments: {scenario: join(dir.path, 'five.yaml')}})
      expect(result.isError).toBe(true)
      // Five problems under their heading, then the error object.
      expect(textOf(result).split('\n')).toHaveLength(7)
    })

    it('tapir_perf_compare answers the table, JSON with json, and fails on an error-level regression', async () => {
      const table = await client.callTool({
        name: 'tapir_perf_compare',
        arguments: {a: file('list-before.json'), b: file('list-after.json')},
      })
      expect(table.isError).toBe(true)
      expect(textOf(table).split('\n')[0]).toBe('perf_compare: regressed (per painted frame; warn +10%, error +25%)')
      const json = await client.callTool({
        name: 'tapir_perf_compare',
        arguments: {a: file('list-before.json'), b: file('list-again.json'), json: true},
      })
      expect(json.isError).toBeFalsy()
      expect(JSON.parse(textOf(json))).toMatchObject({verdict: 'unchanged', unchanged: expect.any(Number)})
      const missing = await client.callTool({
        name: 'tapir_perf_compare',
        arguments: {a: join(dir.path, 'nope.json'), b: file('list-again.json')},
      })
      expect(missing).toMatchObject({isError: true})
      expect(textOf(missing).split('\n')[0]).toBe(`Cannot read ${join(dir.path, 'nope.json')}: no such file`)
    })
  })

  // Last, so it sees every output and file the tests above (CLI and MCP) produced.
  it('never shows the secret: not in any output, not in any file', () => {
    expect(outputs.length).toBeGreaterThan(10)
    for (const text of [...outputs, ...filesUnder(join(dir.path, 'out'))]) expect(text).not.toContain(SECRET)
    expect(readFileSync(file('list-before.json'), 'utf8')).toContain('"text": "***"')
  })
})
