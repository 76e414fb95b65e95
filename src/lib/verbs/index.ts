import {a11y} from './a11y-verb.js'
import {chromeVerbs} from './chrome-verbs.js'
import {controlVerbs} from './control-verbs.js'
import {evaluate} from './evaluate-verb.js'
import {expectVerb} from './expect-verb.js'
import {gestureVerbs} from './gesture-verbs.js'
import {navigationVerbs} from './navigation-verbs.js'
import {perfRunVerbs} from './perf-run-verbs.js'
import {perfVerbs} from './perf-verbs.js'
import {readVerbs} from './read-verbs.js'
import {reloadVerbs} from './reload-verbs.js'
import {screenshot} from './screenshot-verb.js'
import {textVerbs} from './text-verbs.js'
import type {Verb} from './types.js'
import {waitVerbs} from './wait-verbs.js'

/** THE catalogue: every verb, defined once, read by the CLI, tapir:run and the MCP server. */
export const VERBS: readonly Verb[] = [
  ...readVerbs,
  ...gestureVerbs,
  ...textVerbs,
  ...controlVerbs,
  ...navigationVerbs,
  ...waitVerbs,
  evaluate,
  screenshot,
  ...perfVerbs,
  ...chromeVerbs,
  ...reloadVerbs,
  ...perfRunVerbs,
  expectVerb,
  a11y,
]

const byName = new Map(VERBS.map((verb) => [verb.name, verb]))
const byTool = new Map(VERBS.flatMap((verb) => (verb.tool ? [[verb.tool, verb] as const] : [])))

export function verbNamed(name: string): Verb | undefined {
  return byName.get(name)
}

export function verbForTool(tool: string): Verb | undefined {
  return byTool.get(tool)
}

/** Every param of the catalogue that names a widget by its ref (`ref`, drag's `startRef`, ...). */
export const REF_PARAMS: ReadonlySet<string> = new Set(
  VERBS.flatMap((verb) => verb.params.filter((param) => param.widgetRef).map((param) => param.name)),
)
