import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {execa} from 'execa'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'

describe('README', () => {
  it('has the command reference the catalogue generates today', async () => {
    const check = await execa(process.execPath, [join(ROOT, 'scripts', 'readme-commands.mjs'), '--check'], {reject: false})
    expect(check.stderr).toBe('')
    expect(check.exitCode).toBe(0)
  })

  it('is what .ci/run runs: its two setup commands, exactly', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8')
    for (const command of ['npm ci && npm run demo', 'npm ci && npm test']) {
      expect(readme).toContain(command)
      expect(ci.split('\n')).toContain(command)
    }
  })
})
