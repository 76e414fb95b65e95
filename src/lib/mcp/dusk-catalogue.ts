import {VERBS} from '../verbs/index.js'
import type {DuskParamSpec, DuskToolFacts, Param, ToolShape, Verb} from '../verbs/types.js'
import {toolFor, type McpTool} from './schema.js'

/**
 * The catalogue of Dusk 0.0.1, tapir's predecessor: its 31 dusk_* tools, for agents configured
 * for the Dusk MCP server (`mcp:serve --catalogue=dusk`). Each tool is a tapir verb of the one
 * catalogue under 0.0.1's names, parameters and defaults, as the verb's dusk facts give them, so
 * a call runs the same code as the CLI and the tapir_* tool; which extensions the app registers
 * is the verb layer's business.
 * Loaded only by a server that serves it.
 */
export interface DuskTool extends ToolShape, Pick<DuskToolFacts, 'reshape' | 'text' | 'validate' | 'failure'> {
  tool: string
  /** The tapir verb that does the work. */
  verb: Verb
  /** Each dusk parameter's name on the verb, where it differs (`deviceScaleFactor` is `dpr`). */
  onVerb: Readonly<Record<string, string>>
  /** The verb result's keys under 0.0.1's names (`logs` are `entries`). */
  renamed: Readonly<Record<string, string>>
  /** Keys 0.0.1 echoes from the call's own arguments, kept where the verb's result lacks them. */
  echoed: readonly string[]
}

/** What a dusk tool's parameter keeps of the verb's: what the schema and the checks read. */
function duskParam(verb: Verb, spec: DuskParamSpec<string>): {param: Param; from: string} {
  const [name, changes] = typeof spec === 'string' ? [spec, {}] : spec
  const {from = name, ...rest}: Partial<Param> & {from?: string} = changes
  const source = verb.params.find((param) => param.name === from)
  if (!source) throw new Error(`${verb.name} has no parameter ${from}`)
  const {cliDefault: _cli, cliOnly: _only, local: _local, addition: _addition, mcpOnly: _mcp, missing: _missing, ...kept} = source
  const param: Param = {...kept, ...rest, name}
  // The app's own default is tapir's: where 0.0.1's differs, tapir sends 0.0.1's.
  if (rest.default !== undefined && rest.default !== source.default) delete param.defaultInApp
  return {param, from}
}

function toolOf(verb: Verb, facts: DuskToolFacts): DuskTool {
  const built = (facts.params ?? []).map((spec) => duskParam(verb, spec))
  return {
    tool: facts.tool,
    title: facts.title ?? verb.title,
    summary: facts.summary,
    kind: verb.kind,
    params: built.map(({param}) => param),
    verb,
    onVerb: Object.fromEntries(built.filter(({param, from}) => param.name !== from).map(({param, from}) => [param.name, from])),
    renamed: facts.renamed ?? {},
    echoed: facts.echoed ?? [],
    ...(facts.reshape ? {reshape: facts.reshape} : {}),
    ...(facts.text ? {text: facts.text} : {}),
    ...(facts.validate ? {validate: facts.validate} : {}),
    ...(facts.failure ? {failure: facts.failure} : {}),
  }
}

/** Every verb's dusk_* tool, by name: the verbs' own dusk facts (verbs/dusk/facts.ts). */
export const DUSK_TOOLS: readonly DuskTool[] = VERBS.flatMap((verb) =>
  verb.dusk.on !== 'refused' && verb.dusk.tool ? [toolOf(verb, verb.dusk.tool)] : [],
).sort((a, b) => a.tool.localeCompare(b.tool))

const byTool = new Map(DUSK_TOOLS.map((tool) => [tool.tool, tool]))

export function duskTool(name: string): DuskTool | undefined {
  return byTool.get(name)
}

/** The MCP tools of the dusk catalogue, by name. */
export function listDuskTools(): McpTool[] {
  return DUSK_TOOLS.map((tool) => toolFor(tool)).sort((a, b) => a.name.localeCompare(b.name))
}
