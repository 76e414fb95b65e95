import {execFileSync} from 'node:child_process'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {readBoundedText} from '../../src/lib/read-bounded.js'
import {tempDir} from '../helpers/cli.js'

describe('readBoundedText: files a user or an agent names (scenarios, run files)', () => {
  const dir = tempDir()
  afterAll(() => dir.remove())

  it('reads a regular file', () => {
    writeFileSync(join(dir.path, 'a.yaml'), 'name: a\n')
    expect(readBoundedText(join(dir.path, 'a.yaml'))).toBe('name: a\n')
  })
  it('refuses a device and a FIFO at once instead of blocking or reading forever', () => {
    expect(() => readBoundedText('/dev/zero')).toThrow('not a regular file')
    const fifo = join(dir.path, 'pipe')
    execFileSync('mkfifo', [fifo])
    expect(() => readBoundedText(fifo)).toThrow('not a regular file')
  })
  it('refuses a file over the bound', () => {
    writeFileSync(join(dir.path, 'big.json'), 'x'.repeat(2048))
    expect(() => readBoundedText(join(dir.path, 'big.json'), 1024)).toThrow(/larger than/)
  })
})
