import {join} from 'node:path'
import {execa} from 'execa'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'

describe('docs/commands.md', () => {
  it('has the command reference the catalogue generates today', async () => {
    const check = await execa(process.execPath, [join(ROOT, 'scripts', 'docs-commands.mjs'), '--check'], {reject: false})
    expect(check.stderr).toBe('')
    expect(check.exitCode).toBe(0)
  })
})
