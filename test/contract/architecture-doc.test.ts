import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'

/** Every folder under `dir`, itself included, as `src/…/` paths. */
function folders(dir: string): string[] {
  const below = readdirSync(join(ROOT, dir), {withFileTypes: true})
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => folders(`${dir}/${entry.name}`))
  return [`${dir}/`, ...below]
}

describe('docs/architecture.md', () => {
  it('says, in "Every folder", what each folder of src/lib, the front ends and src/sim holds, and names no other', () => {
    const page = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8')
    const section = /^## Every folder\n([\s\S]*?)(?=^## )/m.exec(page)?.[1] ?? ''
    const named = [...section.matchAll(/^- `(src\/[^`]+\/)`/gm)].map((match) => match[1])
    const onDisk = ['src/lib', 'src/cli', 'src/oclif', 'src/commands', 'src/sim'].flatMap(folders)
    expect(named.toSorted()).toEqual(onDisk.toSorted())
  })
})
