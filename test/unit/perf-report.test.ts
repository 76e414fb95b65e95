import {readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {REPORT_OUTPUT, writeOutputFile} from '../../src/lib/output-file.js'
import {readLaunch, startArgs} from '../../src/lib/perf/campaign-launch.js'
import {frameRowsOf, frameTimesFromTrace, MAX_FRAMES} from '../../src/lib/perf/frame-times.js'
import {bucketsFor, histograms} from '../../src/lib/perf/report/charts.js'
import {esc, page} from '../../src/lib/perf/report/html.js'
import {niceStep, ticks} from '../../src/lib/perf/report/scale.js'
import {tempDir} from '../helpers/cli.js'

const frameEvent = (frameNumber: number, ts: number, buildMs: number, rasterMs: number) => ({
  name: `Frame ${frameNumber}`,
  ph: 'X',
  ts,
  dur: 1,
  args: {frameNumber, buildMs, rasterMs},
})

describe('frame times from a trace', () => {
  it('keeps each frame span, in the order drawn, its start counted from the first frame', () => {
    const trace = {
      traceEvents: [
        frameEvent(12, 2_016_700, 3.456, 1.2),
        {name: 'Build', ph: 'X', ts: 2_000_000, dur: 3000},
        frameEvent(11, 2_000_000, 20.123, 2),
        {name: 'Dropped frames', ph: 'i', ts: 2_030_000, args: {after: 12, next: 14, missing: 1}},
        {name: 'MonitorRow', ph: 'X', ts: 2_000_000, dur: 400, args: {count: 1, selfMs: 0.4}},
      ],
    }
    expect(frameTimesFromTrace(trace)).toEqual({
      columns: ['frameNumber', 'startMs', 'buildMs', 'rasterMs'],
      rows: [
        [11, 0, 20.12, 2],
        [12, 16.7, 3.46, 1.2],
      ],
    })
  })

  it('skips what is not a frame span with times of at least 0, and says so when nothing is left', () => {
    const bad = [
      {ph: 'X', ts: 1, args: {frameNumber: 1.5, buildMs: 1, rasterMs: 1}},
      {ph: 'X', ts: 1, args: {frameNumber: 2, buildMs: -1, rasterMs: 1}},
      {ph: 'X', ts: 1, args: {frameNumber: 3, buildMs: 1, rasterMs: '2'}},
      {ph: 'B', ts: 1, args: {frameNumber: 4, buildMs: 1, rasterMs: 1}},
      {ph: 'X', args: {frameNumber: 5, buildMs: 1, rasterMs: 1}},
      null,
      'Frame 6',
    ]
    expect(frameTimesFromTrace({traceEvents: bad})).toBeUndefined()
    expect(frameTimesFromTrace({traceEvents: 'many'})).toBeUndefined()
    expect(frameTimesFromTrace([])).toBeUndefined()
  })

  it('keeps at most MAX_FRAMES frames and counts the rest', () => {
    const events = Array.from({length: MAX_FRAMES + 3}, (_, index) => frameEvent(index, index * 16_700, 1, 1))
    const times = frameTimesFromTrace({traceEvents: events})!
    expect(times.rows).toHaveLength(MAX_FRAMES)
    expect(times.omitted).toBe(3)
  })

  it('reads back only well-formed rows from a run file that may hold anything', () => {
    const repeat = {
      frameTimes: {
        rows: [[1, 0, 2, 3], [2, 16.7, -1, 3], [3, 33, 2], [4, 50, 2, 3, 9], 'x', [5, 66, Infinity, 1]],
      },
    }
    expect(frameRowsOf(repeat)).toEqual([[1, 0, 2, 3]])
    expect(frameRowsOf({frameTimes: {rows: 'no'}})).toEqual([])
    expect(frameRowsOf(null)).toEqual([])
  })
})

describe('report pieces', () => {
  it('escapes markup and quotes, drops control characters, and cuts very long text', () => {
    expect(esc(`<script>alert("x")</script>&'`)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;')
    expect(esc('a\u0000b\u001bc\td')).toBe('a\ufffdb\ufffdc\td')
    expect(esc('x'.repeat(1000))).toBe(`${'x'.repeat(240)}…`)
    expect(esc(undefined)).toBe('')
  })

  it('makes a page that can fetch nothing: a policy with no source but inline styles', () => {
    const html = page('t', '<p>body</p>')
    expect(html.startsWith('<!DOCTYPE html>\n<!-- tapir perf report -->\n')).toBe(true)
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"`)
    expect(html).not.toMatch(/<script|<link|@import|url\(/)
  })

  it('picks round axis steps', () => {
    expect([0.7, 3, 16.7, 21, 99, 240].map((span) => niceStep(span, 10))).toEqual([0.1, 0.5, 2, 2.5, 10, 25])
    expect(ticks(17, 4)).toEqual({step: 5, top: 20, values: [0, 5, 10, 15, 20]})
  })

  it('cuts a histogram into round buckets that hold every frame and reach past the budget', () => {
    expect(bucketsFor([1, 2, 3], 16.7)).toEqual({step: 1, count: 18, overflow: false})
    expect(bucketsFor([1, 2, 30], 16.7)).toEqual({step: 2, count: 16, overflow: false})
    // One frame far past the rest shares a last bucket instead of squeezing every other one.
    expect(bucketsFor([...Array.from({length: 200}, () => 3), 900], 16.7)).toEqual({step: 1, count: 21, overflow: true})
  })

  it('draws one mark per non-empty bucket and series, and the budget line', () => {
    const svg = histograms(
      [
        {
          thread: 'build',
          title: 'Build',
          series: [
            {key: 'A', label: 'A', values: [0.5, 0.7, 3.2, 900]},
            {key: 'B', label: 'B', values: [...Array.from({length: 200}, () => 3), 1]},
          ],
        },
      ],
      16.7,
    )
    const marks = [...svg.matchAll(/data-series="(\w)" data-from="([\d.]+)" data-to="([\d.]+|inf)" data-count="(\d+)"/g)].map((m) =>
      m.slice(1).join(' '),
    )
    expect(marks).toEqual(['A 0 1 2', 'A 3 4 1', 'A 21 inf 1', 'B 1 2 1', 'B 3 4 200'])
    expect(svg).toContain('<line class="budget" data-ms="16.7"')
    expect(svg).toContain('16.7 ms budget')
  })
})

describe('campaign platform keys', () => {
  const read = (value: unknown, platform: 'android' | 'ios' | 'chrome') => {
    const problems: string[] = []
    return {launch: readLaunch(value, platform, problems), problems}
  }

  it('reads a device and the flutter arguments, and Chrome with its DevTools port', () => {
    expect(read({device: 'emulator-5554', flutter_args: ['--profile', '--flavor=dev']}, 'android')).toEqual({
      launch: {device: 'emulator-5554', flutterArgs: ['--profile', '--flavor=dev']},
      problems: [],
    })
    expect(read({}, 'chrome')).toEqual({launch: {device: 'chrome', flutterArgs: [], cdpPort: 9222}, problems: []})
    expect(startArgs({device: 'chrome', flutterArgs: ['--profile'], cdpPort: 9333})).toEqual({
      args: ['start', '--device=chrome', '--cdp-port=9333'],
      flutterArgs: ['--profile'],
    })
  })

  it('refuses a device that could be a flag, bad arguments and ports, and keys it does not know', () => {
    expect(read({device: '--machine'}, 'ios').problems).toEqual([
      'ios.device: must be a flutter device id (letters, digits, . _ : -), got "--machine"',
    ])
    expect(read({device: 'x', flutter_args: ['ok', '', 7, 'a\nb'], avd: 'Pixel'}, 'android').problems).toEqual([
      'android.avd: tapir does not boot emulators, forward ports or grant permissions; boot the device yourself and name it in android.device',
      'android.flutter_args[1]: must be a non-empty line of text',
      'android.flutter_args[2]: must be a non-empty line of text',
      'android.flutter_args[3]: must be a non-empty line of text',
    ])
    expect(read({cdp_port: 70000, device: 'chrome'}, 'chrome').problems).toEqual([
      'chrome: unknown key device (allowed: cdp_port, flutter_args)',
      'chrome.cdp_port: must be a port number, 1 to 65535 (got 70000)',
    ])
    expect(read('emulator-5554', 'android').problems).toEqual([
      'android: must be a map, e.g. android: {device: emulator-5554, flutter_args: [--profile]}',
    ])
  })
})

describe('a report replaces only an earlier report', () => {
  const dir = tempDir()
  afterAll(() => dir.remove())

  it('writes a report over its own, and refuses any other file or a link', () => {
    const path = join(dir.path, 'report.html')
    writeOutputFile(path, page('one', ''), REPORT_OUTPUT)
    writeOutputFile(path, page('two', ''), REPORT_OUTPUT)
    expect(readFileSync(path, 'utf8')).toContain('<title>two</title>')
    const mine = join(dir.path, 'index.html')
    writeFileSync(mine, '<!DOCTYPE html>\n<p>my site</p>\n')
    expect(() => writeOutputFile(mine, page('x', ''), REPORT_OUTPUT)).toThrow(
      `Refusing to replace ${mine}: it exists and is not a perf report tapir wrote.`,
    )
    const link = join(dir.path, 'link.html')
    symlinkSync(path, link)
    expect(() => writeOutputFile(link, page('x', ''), REPORT_OUTPUT)).toThrow('it is a symbolic link')
    expect(readFileSync(mine, 'utf8')).toBe('<!DOCTYPE html>\n<p>my site</p>\n')
  })
})
