import {symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {tapir, tempDir} from '../helpers/cli.js'
import {mcpClient} from '../helpers/mcp.js'
import {withSimSession} from '../helpers/sim.js'

type ToolResult = {isError?: boolean; content: Array<{text: string}>}

/** A run file with the shape tapir:perf_run writes (run-file.ts), one metric per series. */
function runFile(perFrame: Record<string, number> = {'blocks.Row': 1}): Record<string, unknown> {
  const spreadOf = (metrics: Record<string, number>) =>
    Object.fromEntries(Object.entries(metrics).map(([metric, value]) => [metric, {min: value, max: value, rangePct: 0}]))
  return {
    scenario: {name: 'list', thresholds: {warn: 10, error: 25}},
    label: 'run',
    env: {target: 'lib/main.dart', buildMode: 'profile', emulator: false},
    summary: {
      repeats: 3,
      refused: 0,
      frames: {count: 40, painted: 40, dropped: 0, overBudget: 0},
      perFrame,
      ms: {'buildMs.p50': 2},
      spread: {perFrame: spreadOf(perFrame), ms: spreadOf({'buildMs.p50': 2})},
    },
    insights: [],
    repeats: [],
  }
}

/** Billion laughs: nine levels of nine aliases each (9^9 strings once expanded). */
function billionLaughs(): string {
  const lines = ['lol0: &l0 "lol"']
  for (let level = 1; level <= 9; level++)
    lines.push(
      `lol${level}: &l${level} [${Array(9)
        .fill(`*l${level - 1}`)
        .join(', ')}]`,
    )
  return lines.join('\n')
}

/** One list aliased 100 times: 100x100 values from a file of a few kilobytes. */
function hundredByHundred(): string {
  return `row: &row [${Array(100).fill('"x"').join(', ')}]\ngrid: [${Array(100).fill('*row').join(', ')}]`
}

describe('hostile scenario and run files', () => {
  const dir = tempDir('tapir-hostile-perf-')
  const file = (name: string, text: string): string => {
    writeFileSync(join(dir.path, name), text)
    return join(dir.path, name)
  }
  const json = (name: string, value: unknown): string => file(name, JSON.stringify(value))
  const compare = (a: string, b: string, extra: string[] = []) => tapir(['tapir:perf_compare', a, b, ...extra], {cwd: dir.path})
  afterAll(() => dir.remove())

  describe('YAML alias bombs are an invalid scenario, exit 1, one line per problem (issue 19, item 10)', () => {
    const s = withSimSession()

    it.each([
      ['billion laughs', `name: bomb\n${billionLaughs()}\nsteps: [{tap: {target: {text: Go}}}]\n`, 'its aliases expand too far'],
      [
        '100 aliases of a 100-item list',
        `name: grid\n${hundredByHundred()}\nsteps: [{tap: {target: {text: Go}}}]\n`,
        'its aliases expand too far',
      ],
    ])('a scenario with %s', async (_kind, text, what) => {
      const path = file('bomb.yaml', text)
      const before = s.sim.requests.length
      const result = await s.run(['tapir:perf_run', path])
      expect(result).toMatchObject({exitCode: 1, stdout: ''})
      expect(result.stderr.split('\n')).toEqual([
        '✗ Invalid perf scenario:',
        `- ${path}: YAML: ${what} (more than 100 uses, counted as expanded); write the repeated part out`,
      ])
      expect(s.sim.requests.length).toBe(before)
    })

    it('a list of aliases within the alias bound that still expands past 100,000 values', async () => {
      // 90 uses of a 2,000-item list: under the alias bound, 180,000 values once expanded.
      const text = `name: wide\nrow: &row [${Array(2000).fill('1').join(',')}]\ngrid: [${Array(90).fill('*row').join(',')}]\nsteps: [{tap: {target: {text: Go}}}]\n`
      const path = file('wide.yaml', text)
      const result = await s.run(['tapir:perf_run', path])
      expect(result).toMatchObject({exitCode: 1, stdout: ''})
      expect(result.stderr.split('\n')).toEqual([
        '✗ Invalid perf scenario:',
        `- ${path}: YAML: more than 100000 values once its aliases are expanded; a scenario is far smaller`,
      ])
    })

    it('a campaign file that is an alias bomb is an invalid campaign', async () => {
      const path = file('campaign.yaml', `scenarios: [none.yaml]\n${billionLaughs()}\n`)
      const result = await s.run(['tapir:perf_campaign', path, '--platform=sim', `--out=${join(dir.path, 'out')}`])
      expect(result).toMatchObject({exitCode: 1, stdout: ''})
      expect(result.stderr.split('\n')[0]).toBe('✗ Invalid perf campaign:')
      expect(result.stderr).toContain(`- ${path}: YAML: its aliases expand too far`)
    })
  })

  describe('perf_compare checks run files against the shape perf_run writes (item 11)', () => {
    it('two honest run files compare (the baseline of the tests below)', async () => {
      const result = await compare(json('a.json', runFile()), json('b.json', runFile()))
      expect(result.exitCode, result.stderr).toBe(0)
      expect(result.stdout.split('\n')[0]).toBe('perf_compare: unchanged (per painted frame; warn +10%, error +25%)')
    })

    it('lists every wrong type of both files at once, exit 1, naming fields and never values', async () => {
      const bad = runFile()
      const summary = bad.summary as Record<string, unknown>
      summary.frames = 'x'
      summary.perFrame = {'blocks.Row': 'fast', 'blocks.Text': -2}
      summary.repeats = 2.5
      bad.insights = {}
      const worse = runFile()
      worse.label = 7
      ;(worse.env as Record<string, unknown>).emulator = 'no'
      json('bad.json', bad)
      json('worse.json', worse)
      const result = await compare('bad.json', 'worse.json')
      expect(result).toMatchObject({exitCode: 1, stdout: ''})
      expect(result.stderr.split('\n')).toEqual([
        '✗ Run A (bad.json) is not a tapir:perf_run file:',
        '- summary.repeats: a whole number of at least 0 is expected, not a fraction',
        '- summary.frames: a {count, painted, dropped, overBudget} object is expected, not a string',
        '- summary.perFrame["blocks.Row"]: a number of at least 0 is expected, not a string',
        '- summary.perFrame["blocks.Text"]: a number of at least 0 is expected, not a negative number',
        '- insights: a list is expected, not an object',
        'Run B (worse.json) is not a tapir:perf_run file:',
        '- label: text is expected, not a number',
        '- env.emulator: true or false is expected, not a string',
      ])
      expect(result.stderr).not.toContain('fast')
    })

    it('absurd values never print Infinity: a number too large is refused, a ratio too large is shown as new', async () => {
      const huge = await compare(
        json('small.json', runFile()),
        file('huge.json', JSON.stringify(runFile()).replace('"blocks.Row":1', '"blocks.Row":1e400')),
      )
      expect(huge.exitCode).toBe(1)
      expect(huge.stderr).toContain('- summary.perFrame["blocks.Row"]: a number of at least 0 is expected, not a number too large to use')
      const ratio = await compare(json('tiny.json', runFile({'blocks.Row': 1e-300})), json('vast.json', runFile({'blocks.Row': 1e300})))
      expect(ratio.exitCode, ratio.stderr).toBe(0)
      expect(ratio.stdout).not.toMatch(/Infinity|NaN/)
      expect(ratio.stdout).toMatch(/^blocks\.Row .* new \(warn\)$/m)
      const json_ = await compare(join(dir.path, 'tiny.json'), join(dir.path, 'vast.json'), ['--json'])
      expect(json_.stdout).not.toMatch(/Infinity|NaN/)
    })
  })

  describe('an error about a file that is not a run file names it and the reason, never its content (item 12)', () => {
    const secret = 'root:x:0:0:hunter2-secret-line'
    let passwd: string
    let link: string
    let good: string
    let client: Client
    beforeAll(async () => {
      passwd = file('passwd', `${secret}\ndaemon:x:1:1\n`)
      link = join(dir.path, 'link.json')
      symlinkSync(passwd, link)
      good = json('good.json', runFile())
      client = await mcpClient(join(dir.path, 'no-session.json'))
    })
    afterAll(() => client.close())

    it('on the CLI, for the file and for a link to it', async () => {
      for (const [path, shown] of [
        [passwd, passwd],
        ['link.json', 'link.json'],
      ] as const) {
        const result = await compare(path, good)
        expect(result).toEqual({exitCode: 1, stdout: '', stderr: `✗ Run A (${shown}) is not a tapir:perf_run file: it is not JSON.`})
      }
      const json = await compare(good, passwd, ['--json'])
      expect(json.stdout + json.stderr).not.toContain('hunter2')
      expect(JSON.parse(json.stdout).error.message).toBe(`Run B (${passwd}) is not a tapir:perf_run file: it is not JSON.`)
    })

    it('over MCP', async () => {
      for (const args of [
        {a: passwd, b: good},
        {a: good, b: link},
      ]) {
        const result = (await client.callTool({name: 'tapir_perf_compare', arguments: args})) as ToolResult
        expect(result.isError).toBe(true)
        expect(result.content[0]!.text).not.toContain('hunter2')
        expect(result.content[0]!.text).not.toContain('root:')
        expect(result.content[0]!.text.split('\n')[0]).toMatch(/^Run [AB] \(.+\) is not a tapir_perf_run file: it is not JSON\.$/)
      }
    })
  })
})
