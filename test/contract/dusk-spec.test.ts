import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {AjvJsonSchemaValidator} from '@modelcontextprotocol/sdk/validation/ajv'
import {describe, expect, it} from 'vitest'
import {PRESETS} from '../../src/lib/cdp/presets.js'
import {DUSK_TOOLS, duskTool, listDuskTools} from '../../src/lib/mcp/dusk-catalogue.js'
import {inputFromArguments} from '../../src/lib/verbs/input.js'
import {ROOT} from '../helpers/cli.js'
import {CLI_WORDS} from '../helpers/mcp-words.js'

type DuskParam = {name: string; type: string; required: boolean; default?: unknown; enum?: string[]; items?: string[]}
type DuskSpecTool = {name: string; dispatch: string; params: DuskParam[]; example: Record<string, unknown>}

const spec = JSON.parse(readFileSync(join(ROOT, 'spec', 'dusk-tools.json'), 'utf8')) as {tools: DuskSpecTool[]}

const TYPES: Record<string, string> = {string: 'string', integer: 'integer', number: 'number', boolean: 'boolean', array: 'string[]'}

/** The three tools 0.0.1 runs outside the app, and the tapir verbs that do the same. */
const OUTSIDE_THE_APP: Record<string, string> = {
  'artisan:dusk:resize': 'resize',
  'artisan:dusk:device': 'device',
  'artisan:dusk:hot_reload_and_snap': 'hot_reload_and_snap',
}

describe('the dusk catalogue against spec/dusk-tools.json (Dusk 0.0.1)', () => {
  it('names exactly the 31 tools of the reference', () => {
    expect(spec.tools).toHaveLength(31)
    expect(DUSK_TOOLS.map((tool) => tool.tool).sort()).toEqual(spec.tools.map((tool) => tool.name))
  })

  for (const reference of spec.tools) {
    it(`${reference.name} has 0.0.1's parameters, types, required flags, defaults and choices`, () => {
      const tool = duskTool(reference.name)!
      expect(tool.params.map((param) => param.name)).toEqual(reference.params.map((param) => param.name))
      for (const expected of reference.params) {
        const param = tool.params.find((candidate) => candidate.name === expected.name)!
        const where = `${reference.name}.${expected.name}`
        expect(param.type, `${where} type`).toBe(TYPES[expected.type])
        expect(Boolean(param.required), `${where} required`).toBe(expected.required)
        expect(param.default, `${where} default`).toEqual(expected.default)
        expect(param.options, `${where} choices`).toEqual(expected.enum ?? expected.items)
      }
    })

    it(`${reference.name} takes the reference's example call, checked against its JSON Schema`, () => {
      const schema = listDuskTools().find((tool) => tool.name === reference.name)!.inputSchema
      const check = new AjvJsonSchemaValidator().getValidator({...schema, additionalProperties: false})
      const result = check(reference.example)
      expect(result.valid, `${reference.name}: ${result.errorMessage}`).toBe(true)
      const tool = duskTool(reference.name)!
      expect(() => tool.validate?.(inputFromArguments(tool, reference.example))).not.toThrow()
    })

    it(`${reference.name} runs the tapir verb that does what ${reference.dispatch} does`, () => {
      const verb = duskTool(reference.name)!.verb
      const outside = OUTSIDE_THE_APP[reference.dispatch]
      if (outside) expect(verb.name).toBe(outside)
      else if (reference.name === 'dusk_evaluate') expect(verb.dispatch).toBe('vm:evaluate')
      else expect(verb.dispatch).toBe(reference.dispatch.replace(/^ext\.dusk\./, 'ext.tapir.'))
    })
  }

  it("offers device_profile's presets, which are tapir's", () => {
    expect(duskTool('dusk_device_profile')!.params[0]!.options).toEqual(PRESETS.map((preset) => preset.name))
  })

  it('lists its tools in at most the 25,000 bytes the tapir_* list keeps to, speaking MCP (no flag, no tapir: command)', () => {
    const tools = listDuskTools()
    expect(Buffer.byteLength(JSON.stringify(tools))).toBeLessThanOrEqual(25_000)
    for (const tool of tools) {
      expect(tool.description, tool.name).not.toMatch(CLI_WORDS)
      for (const [name, property] of Object.entries(tool.inputSchema.properties as Record<string, {description?: string}>))
        expect(property.description ?? '', `${tool.name}.${name}`).not.toMatch(CLI_WORDS)
    }
  })

  it('gives every tool a title of its own and a description of one or two sentences', () => {
    const tools = listDuskTools()
    expect(new Set(tools.map((tool) => tool.title)).size).toBe(tools.length)
    for (const tool of tools) {
      expect(tool.description.length, tool.name).toBeGreaterThan(20)
      expect(tool.description.length, tool.name).toBeLessThanOrEqual(160)
      expect(tool.description.split(/[.;]\s+(?=[A-Z])/).length, tool.name).toBeLessThanOrEqual(2)
    }
  })
})

const duskSource = join(ROOT, '..', 'shared', 'spec', 'dusk-mcp-tool-reference-0.0.1.md')

describe.runIf(existsSync(duskSource))('spec/dusk-tools.json against ../shared', () => {
  // Read in each test: a skipped describe still runs its body, on a clone without ../shared too.
  const text = () => readFileSync(duskSource, 'utf8')

  it('is what scripts/extract-dusk-spec.mjs makes of the reference today (run npm run spec:extract if not)', async () => {
    const {extractDuskTools} = await import('../../scripts/extract-dusk-spec.mjs')
    expect(extractDuskTools(text())).toEqual(spec.tools)
  })

  it("words every tool and parameter in tapir's own words: no run of six words from the reference", () => {
    const words = (line: string) => line.toLowerCase().match(/[a-z0-9]+/g) ?? []
    const runs = new Set<string>()
    for (const line of text().split('\n')) {
      const list = words(line)
      for (let at = 0; at + 6 <= list.length; at++) runs.add(list.slice(at, at + 6).join(' '))
    }
    const copied = listDuskTools().flatMap((tool) =>
      [
        tool.description,
        ...Object.values(tool.inputSchema.properties as Record<string, {description?: string}>).map((p) => p.description ?? ''),
      ]
        .filter((own) => {
          const list = words(own)
          return list.some((_, at) => at + 6 <= list.length && runs.has(list.slice(at, at + 6).join(' ')))
        })
        .map((own) => `${tool.name}: ${own}`),
    )
    expect(copied).toEqual([])
  })
})
