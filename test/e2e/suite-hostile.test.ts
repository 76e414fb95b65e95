import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {tapir, tempDir} from '../helpers/cli.js'
import {simSession, type SimSession} from '../helpers/sim.js'

// Hostile input to tapir test and merge-reports: each is one line and exit 1, never "Unexpected error".

const report = (tests: unknown[]) =>
  JSON.stringify({tool: 'tapir test', version: 1, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 1, fresh: 'none', tests})

describe('tapir test and merge-reports on hostile input', () => {
  let s: SimSession
  let project: {path: string; remove(): void}
  const inProject = (args: string[]) => tapir([...args, '--state', s.state], {cwd: project.path})

  beforeAll(async () => {
    s = await simSession()
    project = tempDir('tapir-suite-hostile-')
  })
  afterAll(async () => {
    await s.close()
    project.remove()
  })

  it('refuses a flow deeper than it looks, naming the folder, rather than passing without it', async () => {
    writeFileSync(join(project.path, 'top.tapir'), 'expect --route=/login\n')
    const deep = join(project.path, ...Array.from({length: 34}, (_, index) => `d${index}`))
    mkdirSync(deep, {recursive: true})
    writeFileSync(join(deep, 'deep.tapir'), 'expect --route=/login\n')
    const result = await inProject(['test', '.', '--fresh=none', '--output-dir=out-deep'])
    expect({exitCode: result.exitCode, stdout: result.stdout}).toEqual({exitCode: 1, stdout: ''})
    expect(result.stderr).toBe(
      `✗ ${join(project.path, ...Array.from({length: 33}, (_, index) => `d${index}`))} is more than 32 folders below ., deeper than tapir test looks. Name that folder on its own (tapir test <folder>).`,
    )
    // Named on its own, the deep folder runs.
    const named = await inProject([
      'test',
      join(...Array.from({length: 20}, (_, index) => `d${index}`)),
      '--fresh=none',
      '--output-dir=out-deep',
    ])
    expect(named.exitCode, named.stderr).toBe(0)
  })

  it('refuses forged reports to merge with one line: no attempt, nesting 200,000 deep', async () => {
    const forged: Array<[string, string, string]> = [
      [
        'empty',
        report([{file: 'x.tapir', status: 'failed', durationMs: 1, attempts: []}]),
        '✗ empty/report.json is not a tapir test report: its report.tests[0].attempts: it holds no attempt.',
      ],
      [
        'deep',
        report([
          {
            file: 'y.tapir',
            status: 'passed',
            durationMs: 1,
            attempts: [{passed: true, durationMs: 1, startedAt: 'x', steps: [], evidence: {console: ['@']}}],
          },
        ]).replace('"@"', '['.repeat(200_000) + ']'.repeat(200_000)),
        '✗ deep/report.json is not a tapir test report: it nests deeper than 1100 levels.',
      ],
    ]
    for (const [folder, text, message] of forged) {
      mkdirSync(join(project.path, folder))
      writeFileSync(join(project.path, folder, 'report.json'), text)
      const result = await inProject(['merge-reports', folder, `--output-dir=merged-${folder}`])
      expect({exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr}).toEqual({exitCode: 1, stdout: '', stderr: message})
    }
  })
})
