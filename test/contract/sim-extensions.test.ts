import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {EXTENSION_HANDLERS} from '../../src/sim/app/handlers/registry.js'
import {startSim, type SimOptions} from '../../src/sim/index.js'
import {ROOT} from '../helpers/cli.js'
import {RawClient} from '../sim/server-helpers.js'

/** An extension list the project keeps as data from its source (spec/<list>.json). */
interface ExtensionList {
  source: string
  prefix: string
  extensions: Array<{name: string; section: string; from: 'dispatch' | 'prose'; quote?: string}>
}

const readList = (file: string) => JSON.parse(readFileSync(join(ROOT, 'spec', file), 'utf8')) as ExtensionList

/** The `prefix` methods a sim started with `options` lists in its isolate's `extensionRPCs`. */
async function registered(options: SimOptions, prefix: string): Promise<string[]> {
  const sim = await startSim(options)
  const client = await RawClient.open(sim.wsUri)
  try {
    const vm = await client.call('getVM')
    const isolateId = (vm.result.isolates as Array<{id: string}>)[0]!.id
    const isolate = await client.call('getIsolate', {isolateId})
    return (isolate.result.extensionRPCs as string[])
      .filter((method) => method.startsWith(prefix))
      .map((method) => method.slice(prefix.length))
  } finally {
    client.close()
    await sim.close()
  }
}

/**
 * Each package's list beside the sim mode that plays it. A list for another package (Dusk 0.0.1's
 * `ext.dusk.*`, Flutter's own `ext.flutter.*`) is one more row: its data file and the sim it holds.
 */
const LISTS: Array<{file: string; sim: SimOptions; cites?: ReadonlyMap<string, string>}> = [
  {file: 'tapir-extensions.json', sim: {}, cites: new Map(EXTENSION_HANDLERS.map((handler) => [handler.name, handler.cites]))},
]

describe.each(LISTS)('the sim registers exactly what $file names', ({file, sim, cites}) => {
  const list = readList(file)

  it('in its isolate, no more and no fewer', async () => {
    const names = list.extensions.map((extension) => extension.name).sort()
    expect((await registered(sim, list.prefix)).sort()).toEqual(names)
  })

  it.runIf(cites !== undefined)('with each handler citing the section of the source that names it', () => {
    for (const extension of list.extensions) expect(cites?.get(extension.name), extension.name).toBe(extension.section)
    expect(cites?.size).toBe(list.extensions.length)
  })
})

describe('spec/tapir-extensions.json', () => {
  const list = readList('tapir-extensions.json')

  it('names every extension a tool of the reference dispatches to, with the sentence for each it names in prose', () => {
    const tools = (JSON.parse(readFileSync(join(ROOT, 'spec', 'tools.json'), 'utf8')) as {tools: Array<{dispatch: string | null}>}).tools
    const dispatched = tools.flatMap(({dispatch}) => (dispatch?.startsWith('ext.tapir.') ? [dispatch.slice('ext.tapir.'.length)] : []))
    const named = list.extensions.filter((extension) => extension.from === 'dispatch').map((extension) => extension.name)
    expect(named.sort()).toEqual([...new Set(dispatched)].sort())
    for (const extension of list.extensions.filter((entry) => entry.from === 'prose'))
      expect(extension.quote, extension.name).toMatch(new RegExp(`\`(ext\\.tapir\\.)?${extension.name}\``))
  })

  const specSource = join(ROOT, '..', 'shared', 'spec', 'tapir-mcp-tool-reference.md')
  it.runIf(existsSync(specSource))(
    'is what scripts/extract-spec.mjs makes of the reference today (run npm run spec:extract if not)',
    async () => {
      const {extractExtensions} = await import('../../scripts/extract-spec.mjs')
      expect(extractExtensions(readFileSync(specSource, 'utf8'))).toEqual(list.extensions)
    },
  )
})
