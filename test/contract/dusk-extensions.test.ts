import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {DUSK_EXTENSIONS, DUSK_METHODS} from '../../src/sim/dusk/handlers.js'
import {ROOT} from '../helpers/cli.js'

type Handler = {name: string; file: string; handler: string; reads: string[]; ignored?: string[]}

/** What fluttersdk/dusk 0.0.1 registers and reads, read from its source (the file cites it). */
const dusk = JSON.parse(readFileSync(join(ROOT, 'spec', 'dusk-0.0.1-extensions.json'), 'utf8')) as {
  source: {repository: string; tag: string; commit: string}
  extensions: Handler[]
}

/** What the sim does not read yet, and tapir never sends (its dusk facts refuse a value other
 *  than the default): snap's enricher fragments, a screenshot of one widget or a rect. */
const READS_FEWER: Readonly<Record<string, readonly string[]>> = {
  snap: ['includeEnrichers'],
  screenshot: ['ref', 'rect'],
}

describe("the Dusk sim against Dusk 0.0.1's register_dusk_extensions.dart", () => {
  it('cites the tag and commit it was read at', () => {
    expect(dusk.source).toMatchObject({repository: 'fluttersdk/dusk', tag: '0.0.1'})
    expect(dusk.source.commit).toMatch(/^[0-9a-f]{40}$/)
  })

  it('registers exactly the ext.dusk.* extensions 0.0.1 registers, no more and no fewer', () => {
    expect([...DUSK_EXTENSIONS].sort()).toEqual(dusk.extensions.map((each) => each.name).sort())
  })

  for (const handler of dusk.extensions) {
    const name = handler.name.replace(/^ext\.dusk\./, '')
    it(`${handler.name} reads what ${handler.file} ${handler.handler} reads`, () => {
      const sim = DUSK_METHODS[name]!
      const short = READS_FEWER[name] ?? []
      const expected = handler.reads.filter((param) => !short.includes(param))
      expect([...sim.params].sort()).toEqual([...expected, ...(handler.ignored ?? [])].sort())
    })
  }
})
