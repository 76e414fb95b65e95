import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {RUN_TOOL} from '../../src/lib/run/tool.js'
import {VERBS, verbForTool} from '../../src/lib/verbs/index.js'
import type {ToolShape} from '../../src/lib/verbs/types.js'
import {ROOT} from '../helpers/cli.js'

type SpecParam = {name: string; type: string; required: boolean; default?: unknown}
type SpecTool = {name: string; dispatch: string | null; params: SpecParam[]}

const spec = JSON.parse(readFileSync(join(ROOT, 'spec', 'tools.json'), 'utf8')) as {tools: SpecTool[]}

/** Tools whose issues have not landed yet; each must leave this list when it lands. */
const PENDING = new Set<string>([])

/** Parameters tapir adds to a tool of the reference (marked `addition`); the reference's own stay as it defines them. */
const ADDITIONS = new Set<string>(['tapir_perf_run.html', 'tapir_perf_compare.html'])

const TYPES: Record<string, string> = {
  string: 'string',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean',
  'array<string>': 'string[]',
}

describe('the catalogue against spec/tools.json', () => {
  it('names 40 tools, as the reference does', () => {
    expect(spec.tools).toHaveLength(40)
  })

  for (const tool of spec.tools) {
    if (PENDING.has(tool.name)) {
      it(`${tool.name} is pending, so it is not in the catalogue`, () => {
        expect(verbForTool(tool.name)).toBeUndefined()
      })
      continue
    }
    it(`${tool.name} exists with every parameter, type, required flag and default`, () => {
      const verb: ToolShape | undefined = tool.name === RUN_TOOL.tool ? RUN_TOOL : verbForTool(tool.name)
      expect(verb, `${tool.name} is missing from the catalogue`).toBeDefined()
      const params = verb!.params.filter((param) => !param.cliOnly && !param.addition)
      expect(params.map((param) => param.name).sort()).toEqual(tool.params.map((param) => param.name).sort())
      for (const expected of tool.params) {
        const param = params.find((candidate) => candidate.name === expected.name)!
        expect(param.type, `${tool.name}.${expected.name} type`).toBe(TYPES[expected.type])
        expect(Boolean(param.required), `${tool.name}.${expected.name} required`).toBe(expected.required)
        if (expected.default !== undefined) expect(param.default, `${tool.name}.${expected.name} default`).toEqual(expected.default)
      }
    })
  }

  it('dispatches every in-app tool to the extension the reference names (evaluate goes through the VM, as it says)', () => {
    for (const tool of spec.tools) {
      const verb = verbForTool(tool.name)
      if (!verb || !tool.dispatch?.startsWith('ext.tapir.')) continue
      expect(verb.dispatch, tool.name).toBe(tool.name === 'tapir_evaluate' ? 'vm:evaluate' : tool.dispatch)
    }
  })

  it('adds only the parameters listed as additions, none of them required, none shadowing a reference parameter', () => {
    const added = VERBS.flatMap((verb) =>
      verb.tool ? verb.params.filter((param) => param.addition).map((param) => ({tool: verb.tool!, param})) : [],
    )
    expect(new Set(added.map(({tool, param}) => `${tool}.${param.name}`))).toEqual(ADDITIONS)
    for (const {tool, param} of added) {
      expect(param.required, `${tool}.${param.name}`).toBeFalsy()
      expect(spec.tools.find((entry) => entry.name === tool)!.params.map((entry) => entry.name)).not.toContain(param.name)
    }
  })

  it('has no MCP tool the reference does not name', () => {
    const names = new Set(spec.tools.map((tool) => tool.name))
    for (const verb of VERBS) if (verb.tool && !verb.addition) expect(names.has(verb.tool), verb.tool).toBe(true)
    expect(VERBS.filter((verb) => verb.addition).map((verb) => verb.tool)).toEqual(['tapir_expect', 'tapir_a11y'])
  })

  it('gives every verb and parameter a description', () => {
    for (const verb of VERBS) {
      expect(verb.summary.length, verb.name).toBeGreaterThan(20)
      for (const param of verb.params) expect(param.description.length, `${verb.name}.${param.name}`).toBeGreaterThan(10)
    }
  })
})

const specSource = join(ROOT, '..', 'shared', 'spec', 'tapir-mcp-tool-reference.md')

describe.runIf(existsSync(specSource))('spec/tools.json against ../shared', () => {
  it('is what scripts/extract-spec.mjs makes of the reference today (run npm run spec:extract if not)', async () => {
    const {extractTools} = await import('../../scripts/extract-spec.mjs')
    expect(extractTools(readFileSync(specSource, 'utf8'))).toEqual(spec.tools)
  })
})
