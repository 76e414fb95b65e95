import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {sessionFile, tapir, tempDir} from '../helpers/cli.js'
import {hostileVm, type HostileVm} from '../helpers/hostile-vm.js'
import {pngSize} from '../helpers/page-probe.js'
import {reportBrowser, type OpenedPage, type ReportBrowser} from '../helpers/report-page.js'
import {simSession, type SimSession} from '../helpers/sim.js'

const ENV = {PERF_PASSWORD: 'hunter22'}
const HOSTILE = '<script>window.pwned=1</script><img src="http://127.0.0.1:9/x.png">Row'

const SCENARIO = `name: list
platforms: [sim]
repeat: 2
setup:
  - hot_restart
  - fill: {target: {key: email}, text: ada@example.com}
  - fill: {target: {key: password}, text: "\${env.PERF_PASSWORD}"}
  - tap: {target: {key: signIn}}
  - wait_for_text: Monitors
steps:
  - scroll: {target: {text: API}, dy: 400}
  - tap: {target: {role: button, name: Web}}
`

type Row = [number, number, number, number]
type RunFile = {
  repeats: Array<{series: string; refused?: boolean; frameTimes?: {columns: string[]; rows: Row[]}; summary: {frames: {painted: number}}}>
  summary: {frames: {painted: number; overBudget: number}}
  insights: unknown[]
}
type Mark = {series: string; thread: string; from: number; to: number; count: number}

const readJson = (path: string): RunFile => JSON.parse(readFileSync(path, 'utf8'))

/** The histogram marks of a page, with the edges and counts they state. */
const histogramMarks = (page: OpenedPage): Promise<Mark[]> =>
  page.evaluate<Mark[]>(
    `[...document.querySelectorAll('svg.histogram rect.mark')].map((r) => ({series: r.dataset.series, thread: r.dataset.thread, from: Number(r.dataset.from), to: r.dataset.to === 'inf' ? Infinity : Number(r.dataset.to), count: Number(r.dataset.count)}))`,
  )

/** Every frame of `frames` falls in exactly one mark of its series and thread, each mark holds
 *  exactly the frames in its range, and no mark is empty: one mark per non-empty bucket. */
function expectOneMarkPerBucket(marks: Mark[], series: string, thread: 'build' | 'raster', frames: Row[]): void {
  const mine = marks.filter((mark) => mark.series === series && mark.thread === thread)
  const values = frames.map((row) => (thread === 'build' ? row[2] : row[3]))
  expect(values.length).toBeGreaterThan(0)
  for (const value of values)
    expect(
      mine.filter((mark) => mark.from <= value && value < mark.to),
      `${series} ${thread} ${value}`,
    ).toHaveLength(1)
  for (const mark of mine) {
    expect(mark.count).toBeGreaterThan(0)
    expect(mark.count).toBe(values.filter((value) => mark.from <= value && value < mark.to).length)
  }
  expect(mine.reduce((sum, mark) => sum + mark.count, 0)).toBe(values.length)
}

const framesOf = (run: RunFile, series: string): Row[] =>
  run.repeats.filter((repeat) => repeat.series === series && repeat.refused !== true).flatMap((repeat) => repeat.frameTimes!.rows)

/** What every report page must be: no script, no request but its own document, a budget line per chart. */
async function expectSelfContained(page: OpenedPage, file: string): Promise<void> {
  expect(page.requests).toEqual([`file://${file}`])
  expect(await page.evaluate<number>('document.scripts.length')).toBe(0)
  expect(await page.evaluate<number>('document.images.length')).toBe(0)
}

describe('perf reports (--html) rendered in real headless Chromium', () => {
  const dir = tempDir('tapir-report-')
  const out = join(dir.path, 'out')
  const file = (name: string) => join(dir.path, name)
  let plain: SimSession
  let regressed: SimSession
  let browser: ReportBrowser

  beforeAll(async () => {
    writeFileSync(file('list.yaml'), SCENARIO)
    ;[plain, regressed, browser] = await Promise.all([
      simSession({flutterTool: true}),
      simSession({flutterTool: true, perfRegression: true}),
      reportBrowser(),
    ])
    const before = await plain.run(
      ['tapir:perf_run', file('list.yaml'), '--label=before', '--timing', `--out=${out}`, `--html=${file('before.html')}`],
      {env: ENV},
    )
    expect(before.exitCode, before.stderr).toBe(0)
    expect(before.stdout).toMatch(
      new RegExp(
        `^✓ perf_run list: 2 repeat\\(s\\) measured, 0 refused, [\\d.]+ painted frames \\(median\\); wrote ${join(out, 'list-before.json')}; report ${file('before.html')}$`,
      ),
    )
    const after = await regressed.run(
      ['tapir:perf_run', file('list.yaml'), '--label=after', '--timing', `--out=${out}`, `--html=${file('after.html')}`],
      {env: ENV},
    )
    expect(after.exitCode, after.stderr).toBe(0)
  })
  afterAll(async () => {
    await browser?.close()
    expect(plain.sim.violations).toEqual([])
    expect(regressed.sim.violations).toEqual([])
    await plain.close()
    await regressed.close()
    dir.remove()
  })

  it('perf_run keeps every frame of every repeat in the run file, read from the trace after perf_end', () => {
    const run = readJson(join(out, 'list-before.json')) as RunFile & {repeats: Array<{summary: {frames: {painted: number}}}>}
    expect(run.repeats).toHaveLength(4)
    for (const repeat of run.repeats) {
      expect(repeat.frameTimes!.columns).toEqual(['frameNumber', 'startMs', 'buildMs', 'rasterMs'])
      expect(repeat.frameTimes!.rows).toHaveLength(repeat.summary.frames.painted)
      expect(repeat.frameTimes!.rows[0]![1]).toBe(0)
    }
    expect(plain.sim.requests.filter((request) => request.method === 'ext.tapir.perf_trace')).toHaveLength(4)
  })

  it('the run report: its status, a timeline mark per frame of each repeat, one histogram mark per bucket, the budget line, no request', async () => {
    const path = file('after.html')
    const run = readJson(join(out, 'list-after.json'))
    const page = await browser.open(path)
    const png = await page.screenshot(file('after.png'))
    expect(pngSize(png).width).toBe(1100)
    // the colour and the headline follow the verdict: frames over the budget are not green
    const verdict = await page.evaluate<string>('document.querySelector(".verdict").textContent')
    const over = run.summary.frames.overBudget
    const painted = run.summary.frames.painted
    const level = await page.evaluate<string>('document.querySelector(".verdict").className')
    if (over * 2 > painted) {
      expect(level).toBe('verdict level-error')
      expect(verdict).toMatch(/^perf_run list: Too slow: [\d.]+ of [\d.]+ painted frames over the 16\.7 ms budget2 repeats measured; /)
    } else if (over > 0) {
      expect(level).toMatch(/^verdict level-(warn|error)$/)
      expect(verdict).toMatch(/^perf_run list: (Some frames too slow|Too slow): [\d.]+ of [\d.]+ painted frames over/)
    } else expect(level).not.toBe('verdict level-error')
    // the sim reports a debug build: its numbers are labelled for what they mean
    expect(await page.evaluate('document.querySelector(".build-mode").textContent')).toMatch(
      /^Debug build: these times include debug-only work/,
    )
    // insight cards say what to change, in plain words, with no tool to run
    const insightText = await page.evaluate<string>('document.querySelector("#insights").textContent')
    expect(insightText).not.toMatch(/tapir_perf_insight|Sources not read/)
    if (run.insights.length > 0) expect(insightText).toContain('What to change: ')
    const timelines = await page.evaluate<Array<{repeat: string; marks: Array<{thread: string; frame: number; ms: number}>}>>(
      `[...document.querySelectorAll('svg.timeline')].map((svg) => ({repeat: svg.dataset.repeat, marks: [...svg.querySelectorAll('rect.mark')].map((r) => ({thread: r.dataset.thread, frame: Number(r.dataset.frame), ms: Number(r.dataset.ms)}))}))`,
    )
    expect(timelines).toHaveLength(run.repeats.length)
    run.repeats.forEach((repeat, index) => {
      const rows = repeat.frameTimes!.rows
      expect(timelines[index]!.repeat).toBe(String(index + 1))
      expect(timelines[index]!.marks).toEqual(
        rows.flatMap(([frame, , build, raster]) => [
          {thread: 'build', frame, ms: build},
          {thread: 'raster', frame, ms: raster},
        ]),
      )
    })
    const marks = await histogramMarks(page)
    for (const series of ['attribution', 'timing'])
      for (const thread of ['build', 'raster'] as const) expectOneMarkPerBucket(marks, series, thread, framesOf(run, series))
    const budgets = await page.evaluate<Array<{ms: string; chart: string}>>(
      `[...document.querySelectorAll('line.budget')].map((l) => ({ms: l.dataset.ms, chart: l.closest('svg').classList[1]}))`,
    )
    expect(budgets).toEqual([
      {ms: '16.7', chart: 'histogram'},
      {ms: '16.7', chart: 'histogram'},
      ...run.repeats.map(() => ({ms: '16.7', chart: 'timeline'})),
    ])
    expect(await page.evaluate('document.querySelector(".budget-label").textContent')).toBe('16.7 ms budget')
    await expectSelfContained(page, path)
  })

  it('the comparison: the verdict, the metric table by level, A and B per bucket, the block that changed most, the insights', async () => {
    const path = file('compare.html')
    const result = await tapir(['tapir:perf_compare', join(out, 'list-before.json'), join(out, 'list-after.json'), `--html=${path}`])
    expect(result.exitCode).toBe(1)
    expect(result.stdout.split('\n').at(-1)).toBe(`report: ${path}`)
    const page = await browser.open(path)
    await page.screenshot(file('compare.png'))
    expect(await page.evaluate('document.querySelector(".verdict").textContent')).toMatch(
      /^perf_compare: regressedAn error-level regression: perf_compare exits 1\./,
    )
    expect(await page.evaluate('document.querySelector(".verdict").className')).toBe('verdict level-error')
    const rows = await page.evaluate<Array<{metric: string; level: string}>>(
      `[...document.querySelectorAll('table.metrics:not(.unchanged) tbody tr')].map((tr) => ({metric: tr.dataset.metric, level: tr.className}))`,
    )
    expect(rows[0]).toEqual({metric: 'blocks.SparkBar', level: 'level-error'})
    expect(rows.slice(1).every((row) => row.metric.startsWith('timing.buildMs') && row.level === 'level-warn')).toBe(true)
    const marks = await histogramMarks(page)
    const [a, b] = [readJson(join(out, 'list-before.json')), readJson(join(out, 'list-after.json'))]
    for (const thread of ['build', 'raster'] as const) {
      expectOneMarkPerBucket(marks, 'A', thread, framesOf(a, 'timing'))
      expectOneMarkPerBucket(marks, 'B', thread, framesOf(b, 'timing'))
    }
    expect(await page.evaluate('document.querySelectorAll("svg.histogram line.budget[data-ms=\'16.7\']").length')).toBe(2)
    expect(await page.evaluate('document.querySelector(".block-name").textContent')).toBe('SparkBar')
    expect(await page.evaluate('[...document.querySelectorAll("#insights .insight .title")].map((t) => t.textContent)')).toContain(
      await page.evaluate('document.querySelector("#insights .insight .title").textContent'),
    )
    expect(await page.evaluate('document.querySelector("#insights").textContent')).toMatch(/SparkBar runs [\d.]+ times per painted frame/)
    await expectSelfContained(page, path)
  })

  it('shows a widget name holding markup as text, in the comparison of a doctored run file', async () => {
    const text = readFileSync(join(out, 'list-after.json'), 'utf8').replaceAll('SparkBar', HOSTILE.replaceAll('"', '\\"'))
    writeFileSync(file('doctored.json'), text)
    const path = file('doctored.html')
    const result = await tapir(['tapir:perf_compare', join(out, 'list-before.json'), file('doctored.json'), `--html=${path}`])
    // The renamed block is new in B (a warn: no ratio from 0), and SparkBar is gone (improved).
    expect(result.exitCode, result.stderr).toBe(0)
    expect(readFileSync(path, 'utf8')).not.toContain('<script>')
    const page = await browser.open(path)
    expect(await page.evaluate('document.querySelector(".block-name").textContent')).toBe(HOSTILE)
    expect(await page.evaluate('document.querySelector("table.metrics tbody tr").dataset.metric')).toBe(`blocks.${HOSTILE}`)
    expect(await page.evaluate('typeof window.pwned')).toBe('undefined')
    await expectSelfContained(page, path)
  })

  it('refuses to replace a file that is no report of its own, before measuring anything', async () => {
    const notes = file('notes.html')
    writeFileSync(notes, '<p>mine</p>\n')
    const before = plain.sim.requests.length
    const result = await plain.run(['tapir:perf_run', file('list.yaml'), '--label=kept', `--out=${out}`, `--html=${notes}`], {env: ENV})
    expect(result).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: `✗ Refusing to replace ${notes}: it exists and is not a perf report tapir wrote. Remove it, or choose another path.`,
    })
    expect(plain.sim.requests.length).toBe(before)
    expect(existsSync(join(out, 'list-kept.json'))).toBe(false)
    expect(readFileSync(notes, 'utf8')).toBe('<p>mine</p>\n')
  })
})

describe('a perf_run report of an app whose widget names hold markup', () => {
  const dir = tempDir('tapir-report-hostile-')
  const frames: Row[] = [
    [7, 0, 4.5, 2.25],
    [8, 16.67, 21.5, 3],
    [10, 50, 3.25, 30.5],
  ]
  let vm: HostileVm
  let browser: ReportBrowser
  beforeAll(async () => {
    const report = {
      sessionToken: 'perf-1',
      refused: false,
      mode: 'attribution',
      env: {platform: 'linux', buildMode: 'profile'},
      summary: {
        budgetMs: 16.7,
        frames: {count: 4, painted: 3, dropped: 1, overBudget: 2, buildMs: {p50: 4.5, p90: 21.5, p99: 21.5, worst: 21.5}},
        blocksBySelf: [{name: HOSTILE, selfMs: 12, frames: 3}],
        blocksByCount: [{name: HOSTILE, count: 30, perFrame: 10}],
      },
      counters: null,
      insights: [{id: 'I1', severity: 'warn', title: `${HOSTILE} owns 90% of all build self time`, nextStep: '<b>bold</b>'}],
    }
    const trace = {
      traceEvents: [
        {name: 'thread_name', ph: 'M', args: {name: 'ui'}},
        ...frames.map(([frameNumber, startMs, buildMs, rasterMs]) => ({
          name: `Frame ${frameNumber}`,
          ph: 'X',
          ts: 5_000_000 + startMs * 1000,
          dur: 1,
          args: {frameNumber, buildMs, rasterMs},
        })),
        {name: HOSTILE, ph: 'X', ts: 5_000_000, dur: 5, args: {count: 1}},
      ],
    }
    vm = await hostileVm((method) => {
      if (method === 'ext.tapir.perf_begin') return {result: {sessionToken: 'perf-1', mode: 'attribution'}}
      if (method === 'ext.tapir.perf_end') return {result: report}
      if (method === 'ext.tapir.perf_trace') return {result: trace}
      return undefined
    })
    browser = await reportBrowser()
    writeFileSync(join(dir.path, 'tiny.yaml'), 'name: tiny\nplatforms: [sim]\nrepeat: 1\nsteps:\n  - wait: 10\n')
  })
  afterAll(async () => {
    await browser?.close()
    await vm.close()
    dir.remove()
  })

  it('keeps the frames the trace holds and shows the names as text', async () => {
    const state = sessionFile(dir.path, vm.httpUri)
    const path = join(dir.path, 'tiny.html')
    const result = await tapir(
      ['tapir:perf_run', join(dir.path, 'tiny.yaml'), '--platform=sim', `--out=${dir.path}`, `--html=${path}`, '--state', state],
      {cwd: dir.path},
    )
    expect(result.exitCode, result.stderr).toBe(0)
    const run = readJson(join(dir.path, 'tiny-run.json'))
    expect(run.repeats[0]!.frameTimes).toEqual({columns: ['frameNumber', 'startMs', 'buildMs', 'rasterMs'], rows: frames})
    expect(vm.requests.find((request) => request.method === 'ext.tapir.perf_trace')?.params).toMatchObject({token: 'perf-1'})
    const page = await browser.open(path)
    await page.screenshot(join(dir.path, 'tiny.png'))
    expect(await page.evaluate('document.querySelector("svg.blocks .name").textContent')).toBe(`${HOSTILE}${HOSTILE.slice(0, 40)}…`)
    expect(await page.evaluate('document.querySelector("#blocks table td").textContent')).toBe(HOSTILE)
    expect(await page.evaluate('document.querySelector("#insights .title").textContent')).toBe(`${HOSTILE} owns 90% of all build self time`)
    expect(await page.evaluate('document.querySelector("#insights").textContent')).toContain('<b>bold</b>')
    expect(await page.evaluate('document.querySelectorAll("svg.timeline rect.mark").length')).toBe(frames.length * 2)
    expect(
      await page.evaluate('[...document.querySelectorAll("svg.timeline rect.over")].map((r) => r.dataset.frame + r.dataset.thread)'),
    ).toEqual(['8build', '10raster'])
    expect(await page.evaluate('typeof window.pwned')).toBe('undefined')
    await expectSelfContained(page, path)
  })
})
