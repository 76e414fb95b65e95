import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {tapir, tempDir} from '../helpers/cli.js'

// `--output-dir="$REPORTS"` with REPORTS unset reaches tapir as `--output-dir=`: a path, a name or
// a pattern given empty is refused in one line, never read as the current folder or as "none".
describe('an empty value for a command flag', () => {
  const dir = tempDir('tapir-empty-values-')
  afterAll(() => dir.remove())

  it('is refused in one line naming the flag, exit 1, and nothing is written', async () => {
    for (const [args, stderr] of [
      [['test', '--output-dir=', 'flows'], '✗ --output-dir needs a value (tapir-report when left out); give one or leave it out.'],
      [['merge-reports', '--output-dir=', 'a'], '✗ --output-dir needs a value (tapir-report when left out); give one or leave it out.'],
      [['test', '--grep=', 'flows'], '✗ --grep needs a value; give one or leave it out.'],
      [['tapir:run', '--file='], '✗ --file needs a value; give one or leave it out.'],
      [['show-trace', 'x.trace', '--output='], '✗ --output needs a value; give one or leave it out.'],
      [['status', '--state='], "✗ --state needs a file: --state=<session file>, or leave it out for this project's session."],
      [['tapir:snap', '--state='], "✗ --state needs a file: --state=<session file>, or leave it out for this project's session."],
    ] as const) {
      const result = await tapir([...args], {cwd: dir.path})
      expect({args, exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr}).toEqual({
        args,
        exitCode: 1,
        stdout: '',
        stderr,
      })
    }
    expect(existsSync(join(dir.path, 'junit.xml'))).toBe(false)
    expect(existsSync(join(dir.path, 'tapir-report'))).toBe(false)
  })
})
