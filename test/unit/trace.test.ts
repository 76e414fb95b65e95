import {createHash} from 'node:crypto'
import {describe, expect, it} from 'vitest'
import {verbLineText} from '../../src/cli/trace-step.js'
import {traceCall} from '../../src/lib/mcp/trace-call.js'
import {TRACE_BOUNDS, type TraceStep} from '../../src/lib/trace/format.js'
import {parseTrace} from '../../src/lib/trace/read-trace.js'
import {snapshotDiff} from '../../src/lib/trace/snapshot-diff.js'
import {traceSummary} from '../../src/lib/trace/summary.js'
import {tracePage} from '../../src/lib/trace/viewer.js'

const header = {
  tapirTrace: 1,
  kind: 'header',
  tapir: '1.2.3',
  source: 'run',
  title: 'tapir:run',
  startedAt: '2026-01-01T00:00:00.000Z',
  bounds: TRACE_BOUNDS,
}
const step = (n: number, fields: Partial<TraceStep> = {}): TraceStep => ({
  kind: 'step',
  n,
  via: 'run',
  call: `step ${n}`,
  startedAt: '2026-01-01T00:00:01.000Z',
  durationMs: 5,
  exitCode: 0,
  ok: true,
  output: '',
  ...fields,
})
const lines = (...entries: unknown[]): string => entries.map((entry) => `${JSON.stringify(entry)}\n`).join('')

describe('snapshotDiff', () => {
  it('gives the changed lines in order, the lines both hold left out', () => {
    expect(snapshotDiff('a\nb\nc\nd', 'a\nB\nc\nd\ne', 400)).toEqual(['- b', '+ B', '+ e'])
    expect(snapshotDiff('same\nlines', 'same\nlines', 400)).toEqual([])
  })

  it('stops at its bound, saying how many more changed', () => {
    const before = Array.from({length: 10}, (_, i) => `old ${i}`).join('\n')
    const after = Array.from({length: 10}, (_, i) => `new ${i}`).join('\n')
    const diff = snapshotDiff(before, after, 5)
    expect(diff).toHaveLength(5)
    expect(diff.at(-1)).toBe('… 16 more changed lines')
  })

  it('compares two huge snapshots as multisets of lines, still naming each change', () => {
    const before = Array.from({length: 3000}, (_, i) => `row ${i}`)
    const after = [...before.slice(0, 1500), 'row new', ...before.slice(1501)]
    const shuffled = [...after.slice(1), after[0]!]
    expect(snapshotDiff(before.join('\n'), shuffled.join('\n'), 400)).toEqual(['- row 1500', '+ row new'])
  })
})

describe('parseTrace', () => {
  it('reads the whole lines, counts a last line cut short, numbers steps in file order and fills a missing diff', () => {
    const text =
      lines(header, step(7, {snapshot: 'a\nb'}), step(1, {via: 'cli', snapshot: 'a\nc', ok: false, exitCode: 3})) +
      '{"kind":"step","n":3,"ca'
    const trace = parseTrace(text, 'x.trace')
    expect(trace.steps.map((entry) => [entry.n, entry.via])).toEqual([
      [1, 'run'],
      [2, 'cli'],
    ])
    expect(trace.steps[1]!.diff).toEqual(['- b', '+ c'])
    expect(trace.unreadable).toBe(1)
    expect(trace.end).toBeUndefined()
    expect(parseTrace(lines(header, {kind: 'end', endedAt: 'now'}), 'x').end).toEqual({kind: 'end', endedAt: 'now'})
  })

  it('refuses a file that is not a trace, naming it', () => {
    expect(() => parseTrace('{"hello":1}\n', 'notes.json')).toThrow(/^notes\.json is not a tapir trace/)
    expect(() => parseTrace('{"tapirTrace":1,"kind":"header"}\n', 'bad.trace')).toThrow(/^bad\.trace has a header tapir cannot read: /)
  })
})

describe('traceSummary', () => {
  it('names each step, the failure and its reason, and the step the first exception appeared in', () => {
    const trace = parseTrace(
      lines(
        {...header, app: 'tapir', device: 'sim', viewport: {width: 800, height: 1600}},
        step(1, {call: 'tap --ref=e2', route: '/login'}),
        step(2, {call: 'navigate --route=/settings', exceptions: [{type: 'overflow', message: 'A RenderFlex\noverflowed'}]}),
        step(3, {call: 'expect --text=Welcome', ok: false, exitCode: 1, output: '✗ Expected a widget with text "Welcome"'}),
      ),
      'x',
    )
    expect(traceSummary(trace).split('\n')).toEqual([
      'tapir:run: 3 steps, 1 failed (tapir 1.2.3, run, app tapir on sim 800x1600, started 2026-01-01T00:00:00.000Z).',
      'The trace has no closing line: the process ended before it closed the trace (killed, or still running).',
      'Steps:',
      '1. [run] tap --ref=e2: ok in 5 ms at /login',
      '2. [run] navigate --route=/settings: ok in 5 ms',
      '3. [run] expect --text=Welcome: FAILED (exit 1) in 5 ms',
      'Failed: step 3 (expect --text=Welcome): Expected a widget with text "Welcome"',
      'First exception: after step 2 (navigate --route=/settings): overflow: A RenderFlex overflowed',
    ])
  })

  it('lists the failed steps and the last ones of a long trace', () => {
    const steps = Array.from({length: 50}, (_, i) => step(i + 1, i === 3 ? {ok: false, exitCode: 3, output: 'boom'} : {}))
    const summary = traceSummary(parseTrace(lines(header, ...steps, {kind: 'end', endedAt: 'now'}), 'x'))
    expect(summary).toContain('Steps (29 passing ones not listed):')
    expect(summary).toContain('\n4. [run] step 4: FAILED (exit 3)')
    expect(summary).not.toContain('\n5. [run]')
    expect(summary).toContain('\n50. [run] step 50: ok')
  })
})

describe('tracePage', () => {
  const trace = parseTrace(
    lines(
      header,
      step(1, {call: 'fill --text="</script><script>alert(1)</script>"', screenshot: {format: 'jpeg', base64: 'AAAA'}}),
      step(2, {screenshot: {format: 'svg+xml', base64: 'PHN2Zz4='}}),
    ),
    'x',
  )
  const page = tracePage(trace)

  it('embeds the trace so no text in it can end its block, and allows only its own script', () => {
    const data = /<script type="application\/json" id="trace-data">([^]*?)<\/script>/.exec(page)![1]!
    expect(data).not.toContain('<')
    expect(JSON.parse(data).steps[0].call).toBe('fill --text="</script><script>alert(1)</script>"')
    const script = /<script>([^]*?)<\/script>\n<\/body>/.exec(page)![1]!
    const hash = createHash('sha256').update(script).digest('base64')
    expect(page).toContain(`script-src 'sha256-${hash}'`)
    expect(page).toContain("default-src 'none'")
  })

  it('keeps only JPEG and PNG screenshots, as data: URLs', () => {
    const data = JSON.parse(/id="trace-data">([^]*?)<\/script>/.exec(page)![1]!)
    expect(data.steps.map((entry: {screenshot?: string}) => entry.screenshot)).toEqual(['data:image/jpeg;base64,AAAA', undefined])
  })
})

describe('what a trace writes of a call', () => {
  it('drops --state from a CLI line and masks the text fill and type typed', () => {
    expect(verbLineText('fill', ['--ref=e2', '--text=hunter22', '--state', '/home/me/s.json'])).toBe('tapir:fill --ref=e2 --text=***')
    expect(verbLineText('tap', ['--ref=e2', '--state=/x'])).toBe('tapir:tap --ref=e2')
    expect(verbLineText('find', ['--text=Sign in'])).toBe('tapir:find "--text=Sign in"')
  })

  it("masks an MCP call's typed text, in a fill and in tapir_run steps, and reads its exit code", () => {
    const done = traceCall({
      name: 'tapir_fill',
      args: {ref: 'e2', text: 'hunter22'},
      result: {content: [{type: 'text', text: 'No widget\n{"error":{"message":"No widget","exitCode":3}}'}], isError: true},
      startedAt: new Date(0),
      durationMs: 4,
      reads: false,
    })
    expect(done).toMatchObject({call: 'tapir_fill {"ref":"e2","text":"***"}', exitCode: 3, acted: true})
    const run = traceCall({
      name: 'tapir_run',
      args: {steps: ['fill --ref=e2 --text="a b"', 'type --text=pw', 'find --text=Hi']},
      result: {content: [{type: 'image', data: 'AA', mimeType: 'image/png'}]},
      startedAt: new Date(0),
      durationMs: 4,
      reads: false,
    })
    expect(run.call).toBe('tapir_run {"steps":["fill --ref=e2 --text=***","type --text=***","find --text=Hi"]}')
    expect(run).toMatchObject({output: '[image/png]', exitCode: 0})
  })
})
