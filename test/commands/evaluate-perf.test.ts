import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {withSimSession} from '../helpers/sim.js'

describe('tapir:evaluate', () => {
  const s = withSimSession({}, 'in-process')

  it('prints the value of an expression evaluated in the root library', async () => {
    expect(await s.run(['tapir:evaluate', '--expression=1 + 2'])).toMatchObject({exitCode: 0, stdout: '3'})
    expect(JSON.parse((await s.run(['tapir:evaluate', '--expression=Auth.user?.email', '--json'])).stdout)).toEqual({
      expression: 'Auth.user?.email',
      result: 'null',
    })
    const call = s.sim.requests.findLast((request) => request.method === 'evaluate')!
    expect(call.params).toMatchObject({expression: 'Auth.user?.email', targetId: expect.stringMatching(/^libraries\//)})
  })

  it('wraps an expression with await in an async closure (the VM answers with its Future)', async () => {
    const result = await s.run(['tapir:evaluate', '--expression=await currentRoute'])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain('_Future')
    expect(s.sim.requests.findLast((request) => request.method === 'evaluate')!.params.expression).toBe(
      '(() async => await currentRoute)()',
    )
  })

  it('a compile error exits 3 with the compiler message', async () => {
    const result = await s.run(['tapir:evaluate', '--expression=nope + 1'])
    expect(result.exitCode).toBe(3)
    expect(result.stderr).toMatch(/^✗ The expression does not compile: Undefined name 'nope'/)
  })

  it('an expression that throws exits 3 with the exception', async () => {
    const result = await s.run(['tapir:evaluate', "--expression=throw StateError('boom')"])
    expect(result.exitCode).toBe(3)
    expect(result.stderr).toMatch(/^✗ The expression threw: .*boom/)
  })
})

describe('tapir:evaluate on a web app (DWDS behind DDS, as flutter run -d chrome serves it)', () => {
  const s = withSimSession({mode: 'dwds', flutterTool: true}, 'in-process')

  it('evaluates through the expression compiler in the root library, named by its URI', async () => {
    expect(await s.run(['tapir:evaluate', '--expression=1 + 2'])).toMatchObject({exitCode: 0, stdout: '3', stderr: ''})
    expect(await s.run(['tapir:evaluate', "--expression=currentRoute + '!'"])).toMatchObject({exitCode: 0, stdout: '/login!'})
    expect(JSON.parse((await s.run(['tapir:evaluate', '--expression=monitors.length', '--json'])).stdout)).toEqual({
      expression: 'monitors.length',
      result: '20',
    })
    expect(s.sim.requests.findLast((request) => request.method === 'evaluate')!.params).toMatchObject({
      isolateId: '1',
      targetId: 'package:monitors/main.dart',
    })
  })

  it('a compile error (an @Error result on the web, not error 113) exits 3 with the compiler message', async () => {
    const result = await s.run(['tapir:evaluate', '--expression=nope + 1'])
    expect(result).toMatchObject({exitCode: 3, stdout: '', stderr: "✗ The expression does not compile: Undefined name 'nope'."})
  })

  it('an expression that throws exits 3 with the exception', async () => {
    const result = await s.run(['tapir:evaluate', "--expression=throw StateError('boom')"])
    expect(result).toMatchObject({exitCode: 3, stderr: '✗ The expression threw: Error: Bad state: boom'})
  })
})

describe('performance sessions', () => {
  const s = withSimSession({}, 'in-process')

  it('perf_end without perf_begin is an app error, exit 3', async () => {
    expect((await s.run(['tapir:perf_end'])).exitCode).toBe(3)
  })

  it('begin, sign in and open settings, end: a summary naming the top insight, then the drill-down and the trace', async () => {
    await s.run(['tapir:snap'])
    await s.run(['tapir:fill', '--ref=e2', '--text=ada@example.com'])
    await s.run(['tapir:fill', '--ref=e3', '--text=hunter22'])
    expect(await s.run(['tapir:perf_begin'])).toMatchObject({
      exitCode: 0,
      stdout: expect.stringMatching(/^✓ Performance session perf-\d+ open \(attribution\)$/),
    })
    await s.run(['tapir:tap', '--ref=e4'])
    await s.run(['tapir:navigate', '--route=/settings'])
    const end = await s.run(['tapir:perf_end'])
    expect(end.exitCode).toBe(0)
    expect(end.stdout).toMatch(
      /^✓ Performance session (perf-\d+) closed \(attribution\): 9 painted frames, 3 over the 16\.7ms budget, worst build [\d.]+ms\. 5 insight\(s\); top \[error\] I1: .+ Drill in with tapir:perf_insight --id=I1, or pass --json for the report\.$/,
    )
    const token = /(perf-\d+)/.exec(end.stdout)![1]

    const insight = await s.run(['tapir:perf_insight', '--id=I1', `--token=${token}`])
    expect(insight.exitCode).toBe(0)
    expect(JSON.parse(insight.stdout)).toMatchObject({
      sessionToken: token,
      id: 'I1',
      severity: 'error',
      detail: {worstFrames: expect.any(Array)},
    })
    expect((await s.run(['tapir:perf_insight', '--id=I99'])).exitCode).toBe(3)
    expect((await s.run(['tapir:perf_insight', '--id=I1', '--token=perf-999'])).exitCode).toBe(3)

    const out = join(s.dir, 'perf', 'list.trace.json')
    const trace = await s.run(['tapir:perf_trace', `--out=${out}`, `--token=${token}`])
    expect(trace.exitCode, trace.stderr).toBe(0)
    expect(trace.stdout).toBe(out)
    expect(existsSync(trace.stdout)).toBe(true)
    expect(JSON.parse(readFileSync(trace.stdout, 'utf8'))).toMatchObject({traceEvents: expect.any(Array), displayTimeUnit: 'ms'})
  })

  it('--json prints the whole report', async () => {
    await s.run(['tapir:perf_begin', '--mode=timing'])
    await s.run(['tapir:navigate', '--route=/monitors'])
    const end = await s.run(['tapir:perf_end', '--json'])
    expect(end.exitCode).toBe(0)
    expect(JSON.parse(end.stdout)).toMatchObject({
      refused: false,
      mode: 'timing',
      summary: {budgetMs: 16.7, frames: expect.any(Object)},
      counters: null,
    })
  })

  it('a session in which the app drew nothing is refused: exit 1, the reason, no metrics', async () => {
    s.sim.app.setLifecycle('detached')
    try {
      await s.run(['tapir:perf_begin'])
      await s.run(['tapir:navigate', '--route=/settings'])
      const end = await s.run(['tapir:perf_end'])
      expect(end.exitCode).toBe(1)
      expect(end.stdout).toBe('')
      expect(end.stderr).toMatch(/^✗ Performance session perf-\d+ refused: .+/)
      await s.run(['tapir:perf_begin'])
      const json = await s.run(['tapir:perf_end', '--json'])
      expect(json.exitCode).toBe(1)
      const report = JSON.parse(json.stdout)
      expect(report).toMatchObject({refused: true, coverage: {complete: false}})
      expect(report.summary).toBeUndefined()
    } finally {
      s.sim.app.setLifecycle('resumed')
    }
  })
})
