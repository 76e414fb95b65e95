import {existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {tapir, tempDir} from '../helpers/cli.js'
import {simSession, type SimSession} from '../helpers/sim.js'

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const FAILS = 'expect --text=Nope --timeoutMs=0\n'

type Report = {tests: Array<{file: string; attempts: Array<{evidence?: {screenshot?: string; missing?: string[]}}>}>}
const evidenceOf = (report: Report, file: string) => report.tests.find((test) => test.file === file)!.attempts[0]!.evidence!

describe('tapir test and merge-reports keep the user’s files and the results', () => {
  let s: SimSession
  let project: {path: string; remove(): void}
  const inProject = (args: string[]) => tapir([...args, '--state', s.state], {cwd: project.path})
  const at = (...parts: string[]) => join(project.path, ...parts)
  const readReport = (folder: string) => JSON.parse(readFileSync(at(folder, 'report.json'), 'utf8')) as Report

  beforeAll(async () => {
    s = await simSession()
    project = tempDir('tapir-suite-hostile-')
  })
  afterAll(async () => {
    await s.close()
    project.remove()
  })

  it('gives each failed test its own screenshot: a/b vs a_b, and long names alike at their ends', async () => {
    const long = `${'L'.repeat(120)}.tapir`
    const files = ['six/a/b.tapir', 'six/a_b.tapir', `six/p1/${long}`, `six/p2/${long}`]
    for (const file of files) {
      mkdirSync(join(at(file), '..'), {recursive: true})
      writeFileSync(at(file), FAILS)
    }
    const result = await inProject(['test', 'six', '--fresh=none', '--output-dir=out6'])
    expect(result.exitCode, result.stderr).toBe(1)
    expect(result.stdout).toContain('4 tests: 0 passed, 4 failed')
    const report = readReport('out6')
    const shots = files.map((file) => evidenceOf(report, file).screenshot!)
    expect(new Set(shots).size).toBe(4)
    for (const shot of shots) expect(readFileSync(at('out6', shot)).subarray(0, 8).equals(PNG_HEAD)).toBe(true)
    expect(readdirSync(at('out6', 'evidence'))).toHaveLength(4)
  })

  it('writes no screenshot through an evidence folder that is a link, and keeps the user’s image there', async () => {
    writeFileSync(at('fail.tapir'), FAILS)
    mkdirSync(at('pictures'))
    const mine = Buffer.concat([PNG_HEAD, Buffer.from('my holiday photo')])
    // the name the screenshot had before names carried a hash
    writeFileSync(at('pictures', 'fail-attempt1.png'), mine)
    mkdirSync(at('out11'))
    symlinkSync(at('pictures'), at('out11', 'evidence'))
    const result = await inProject(['test', 'fail.tapir', '--fresh=none', '--output-dir=out11'])
    expect(result.exitCode, result.stderr).toBe(1)
    expect(readdirSync(at('pictures'))).toEqual(['fail-attempt1.png'])
    expect(readFileSync(at('pictures', 'fail-attempt1.png')).equals(mine)).toBe(true)
    const evidence = evidenceOf(readReport('out11'), 'fail.tapir')
    expect(evidence.screenshot).toBeUndefined()
    expect(evidence.missing).toEqual([
      'screenshot: out11/evidence is a symbolic link; tapir writes screenshots only into a folder of its own. Remove the link.',
    ])
  })

  it('refuses a report folder it cannot write before any test runs', async () => {
    writeFileSync(at('pass.tapir'), 'expect --route=/login\n')
    const before = s.sim.requests.length
    const result = await inProject(['test', 'pass.tapir', '--fresh=none', '--output-dir=pass.tapir/out'])
    expect(result).toMatchObject({exitCode: 1, stdout: ''})
    expect(result.stderr).toBe(
      `✗ Cannot write the reports to ${at('pass.tapir', 'out')}: a part of the path is not a folder (ENOTDIR). Choose another --output-dir.`,
    )
    expect(s.sim.requests.length).toBe(before)
  })

  it('prints the summary when a report still cannot be written, and writes the others', async () => {
    writeFileSync(at('slow.tapir'), 'expect --route=/login\nwait --text=Nope --timeoutMs=1500\n')
    const before = s.sim.requests.length
    const running = inProject(['test', 'slow.tapir', '--fresh=none', '--output-dir=out10'])
    // once the flow acts on the app, the folder was checked: a folder now takes junit.xml's name
    while (s.sim.requests.length === before) await new Promise((done) => setTimeout(done, 20))
    mkdirSync(at('out10', 'junit.xml'), {recursive: true})
    const result = await running
    expect(result.exitCode).toBe(1)
    expect(result.stdout.split('\n')).toEqual([
      expect.stringMatching(/^✗ slow\.tapir /),
      expect.stringMatching(/^ {4}slow\.tapir:2: step 2 /),
      expect.stringMatching(/^1 test: 0 passed, 1 failed, 0 flaky in /),
      'report: out10/report.html',
      'report: out10/report.json',
    ])
    expect(result.stderr).toBe(`✗ Cannot write ${at('out10', 'junit.xml')}: it is a folder. Name a file inside it instead.`)
  })

  it('masks text a flow types into a secret field in every report, as a recording masks it; other text stays', async () => {
    writeFileSync(
      at('typed.tapir'),
      'find --key=email --as=email\nfill --ref=@email --text=ada@example.com\nfind --key=password --as=pw\nfill --ref=@pw --text=hunter22-typed\nexpect --text=hunter22-typed --timeoutMs=0\n',
    )
    const result = await inProject(['test', 'typed.tapir', '--fresh=none', '--output-dir=out5'])
    expect(result.exitCode, result.stderr).toBe(1)
    for (const file of ['junit.xml', 'report.html', 'report.json'])
      expect(readFileSync(at('out5', file), 'utf8'), file).not.toContain('hunter22')
    expect(result.stdout + result.stderr).not.toContain('hunter22')
    const steps = (
      JSON.parse(readFileSync(at('out5', 'report.json'), 'utf8')) as {tests: Array<{attempts: Array<{steps: Array<{step: string}>}>}>}
    ).tests[0]!.attempts[0]!.steps.map((step) => step.step)
    expect(steps).toEqual([
      'find --key=email --as=email',
      'fill --ref=@email --text=ada@example.com',
      'find --key=password --as=pw',
      'fill --ref=@pw --text=***',
      'expect --text=*** --timeoutMs=0',
    ])
  })

  describe('merge-reports reads only images from inside a shard, through no link', () => {
    const forged = (folder: string, screenshot: string) => {
      mkdirSync(at(folder), {recursive: true})
      const attempt = {
        passed: false,
        durationMs: 1,
        startedAt: '2026-01-01T00:00:00.000Z',
        steps: [],
        failure: {message: 'm', file: 'x.tapir'},
      }
      writeFileSync(
        at(folder, 'report.json'),
        JSON.stringify({
          tool: 'tapir test',
          version: 1,
          startedAt: '2026-01-01T00:00:00.000Z',
          durationMs: 1,
          fresh: 'none',
          tests: [{file: `${folder}.tapir`, status: 'failed', durationMs: 1, attempts: [{...attempt, evidence: {screenshot}}]}],
        }),
      )
    }
    const secret = 'BEGIN OPENSSH PRIVATE KEY sesame'

    it('an evidence folder that links elsewhere (to a key that even starts like a PNG) is not inlined', async () => {
      mkdirSync(at('dot-ssh'))
      writeFileSync(at('dot-ssh', 'id_rsa'), Buffer.concat([PNG_HEAD, Buffer.from(secret)]))
      forged('linked', 'evidence/id_rsa')
      symlinkSync(at('dot-ssh'), at('linked', 'evidence'))
      const result = await inProject(['merge-reports', 'linked', '--output-dir=merged9a'])
      expect(result.exitCode, result.stderr).toBe(1)
      const html = readFileSync(at('merged9a', 'report.html'), 'utf8')
      expect(html).not.toContain(Buffer.from(secret).toString('base64').slice(0, 20))
      expect(html).not.toContain('<img')
    })

    it('a file that is not an image is not inlined', async () => {
      forged('plain', 'evidence/id_rsa')
      mkdirSync(at('plain', 'evidence'))
      writeFileSync(at('plain', 'evidence', 'id_rsa'), `-----${secret}-----\n`)
      const result = await inProject(['merge-reports', 'plain', '--output-dir=merged9b'])
      expect(result.exitCode, result.stderr).toBe(1)
      expect(readFileSync(at('merged9b', 'report.html'), 'utf8')).not.toContain('<img')
    })

    it('a real screenshot of a shard is still inlined', async () => {
      forged('real', 'evidence/shot.png')
      mkdirSync(at('real', 'evidence'))
      writeFileSync(
        at('real', 'evidence', 'shot.png'),
        readFileSync(at('out6', readReport('out6').tests[0]!.attempts[0]!.evidence!.screenshot!)),
      )
      const result = await inProject(['merge-reports', 'real', '--output-dir=merged9c'])
      expect(result.exitCode, result.stderr).toBe(1)
      expect(readFileSync(at('merged9c', 'report.html'), 'utf8')).toContain(
        '<img class="screenshot" alt="The app at the failure" src="data:image/png;base64,',
      )
      expect(existsSync(at('merged9c', 'junit.xml'))).toBe(true)
    })
  })

  describe('merge-reports copies only trace files from inside a shard, through no link', () => {
    const TRACE = '{"tapirTrace":1,"kind":"header"}\n'
    const forged = (folder: string, trace: string) => {
      mkdirSync(at(folder), {recursive: true})
      const attempt = {passed: false, durationMs: 1, startedAt: '2026-01-01T00:00:00.000Z', steps: [], trace}
      writeFileSync(
        at(folder, 'report.json'),
        JSON.stringify({
          tool: 'tapir test',
          version: 1,
          startedAt: '2026-01-01T00:00:00.000Z',
          durationMs: 1,
          fresh: 'none',
          tests: [{file: `${folder}.tapir`, status: 'failed', durationMs: 1, attempts: [attempt]}],
        }),
      )
    }

    it('a linked traces folder, a file that is no trace and a path outside the shard are not carried; a real trace is', async () => {
      mkdirSync(at('keys'))
      writeFileSync(at('keys', 'a.trace'), `${TRACE}BEGIN OPENSSH PRIVATE KEY`)
      forged('tlinked', 'traces/a.trace')
      symlinkSync(at('keys'), at('tlinked', 'traces'))
      forged('tplain', 'traces/b.trace')
      mkdirSync(at('tplain', 'traces'))
      writeFileSync(at('tplain', 'traces', 'b.trace'), 'BEGIN OPENSSH PRIVATE KEY\n')
      forged('tdeep', 'evidence/c.trace')
      mkdirSync(at('tdeep', 'evidence'))
      writeFileSync(at('tdeep', 'evidence', 'c.trace'), TRACE)
      forged('treal', 'traces/d.trace')
      mkdirSync(at('treal', 'traces'))
      writeFileSync(at('treal', 'traces', 'd.trace'), TRACE)
      const result = await inProject(['merge-reports', 'tlinked', 'tplain', 'tdeep', 'treal', '--output-dir=merged10'])
      expect(result.exitCode).toBe(1)
      expect(result.stderr.split('\n')).toEqual([
        '✗ The trace of tdeep.tapir (../tdeep/evidence/c.trace) is not in the merged report: a shard keeps its traces as traces/<name>.trace.',
        '✗ The trace of tlinked.tapir (../tlinked/traces/a.trace) is not in the merged report: it is not a tapir trace file in the shard (a missing file, a link, or too large).',
        '✗ The trace of tplain.tapir (../tplain/traces/b.trace) is not in the merged report: it is not a tapir trace file in the shard (a missing file, a link, or too large).',
      ])
      expect(readdirSync(at('merged10', 'traces'))).toEqual(['d.trace'])
      expect(readFileSync(at('merged10', 'traces', 'd.trace'), 'utf8')).toBe(TRACE)
      const traces = readReport('merged10').tests.map((test) => (test.attempts[0] as {trace?: string}).trace)
      expect(traces).toEqual([undefined, undefined, undefined, 'traces/d.trace'])
      expect(readFileSync(at('merged10', 'report.html'), 'utf8')).not.toContain('../t')

      forged('tout', '../keys/a.trace')
      const outside = await inProject(['merge-reports', 'tout', '--output-dir=merged11'])
      expect(outside.exitCode).toBe(1)
      expect(outside.stderr).toMatch(
        /^✗ A report in .*tout names a trace outside its folder \(\.\.\/keys\/a\.trace\); it is not a report tapir wrote\.$/,
      )
    })
  })
})
