import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'
import {readmeBlocks} from '../helpers/readme-blocks.js'

describe('README', () => {
  it('its install block is exactly what .ci/run runs', () => {
    const setup = readmeBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8')).filter((block) => block.kind === 'setup')
    expect(setup).toHaveLength(1)
    const commands = setup[0]!.body.map((line) => line.replace(/\s+#.*$/, '').trim())
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith('#') && /^\S/.test(line) && !/^(set|cd) /.test(line))
    expect(ci).toEqual(commands)
  })
})
