import {gestureVerbs} from './gesture-verbs.js'
import {readVerbs} from './read-verbs.js'
import type {Verb} from './types.js'

/** THE catalogue: every verb, defined once, read by the CLI, tapir:run and the MCP server. */
export const VERBS: readonly Verb[] = [...readVerbs, ...gestureVerbs]

const byName = new Map(VERBS.map((verb) => [verb.name, verb]))
const byTool = new Map(VERBS.filter((verb) => verb.tool).map((verb) => [verb.tool!, verb]))

export function verbNamed(name: string): Verb | undefined {
  return byName.get(name)
}

export function verbForTool(tool: string): Verb | undefined {
  return byTool.get(tool)
}
