import {readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {CAMPAIGN_ERROR_OUTPUT, RUN_OUTPUT, writeOutputFile} from '../../src/lib/output-file.js'
import {tempDir} from '../helpers/cli.js'

describe('perf run and campaign error files replace only their own earlier output', () => {
  const dir = tempDir()
  afterAll(() => dir.remove())
  const run = `${JSON.stringify({scenario: {name: 'list'}, label: 'run'}, null, 2)}\n`

  it('writes a run file, and replaces an earlier one', () => {
    const path = join(dir.path, 'list-run.json')
    writeOutputFile(path, run, RUN_OUTPUT)
    writeOutputFile(path, run.replace('"run"', '"again"'), RUN_OUTPUT)
    expect(readFileSync(path, 'utf8')).toContain('"again"')
  })
  it('refuses to replace a file that is not one, or to write through a link', () => {
    const config = join(dir.path, 'config')
    writeFileSync(config, '[core]\n')
    expect(() => writeOutputFile(config, run, RUN_OUTPUT)).toThrow(
      `Refusing to replace ${config}: it exists and is not a perf run file tapir wrote.`,
    )
    const link = join(dir.path, 'linked-run.json')
    symlinkSync(config, link)
    expect(() => writeOutputFile(link, run, RUN_OUTPUT)).toThrow('it is a symbolic link')
    expect(() => writeOutputFile(config, 'attempt 1/1: boom\n', CAMPAIGN_ERROR_OUTPUT)).toThrow('is not a perf campaign error file')
    expect(readFileSync(config, 'utf8')).toBe('[core]\n')
  })
})
