import {dirname, resolve} from 'node:path'
import {parseDocument} from 'yaml'
import {UsageError, messageOf, errorCode} from '../errors.js'
import {readBoundedText} from '../read-bounded.js'
import type {Param, Scope} from './interpolate.js'
import {DEFAULT_THRESHOLDS, type Thresholds} from './run-file.js'
import {
  GESTURE_VERBS,
  SECRET_MIN_LENGTH,
  STEP_VERBS,
  integer,
  isMap,
  platformList,
  step,
  text,
  unknownKeys,
  verbOf,
  type ReadContext,
} from './scenario-entries.js'
import {PLATFORMS, type Gesture, type Scenario, type SetupEntry, type Step, type When} from './scenario-types.js'

const TOP_KEYS = ['name', 'viewport', 'platforms', 'setup', 'steps', 'repeat', 'thresholds', 'variants']
const VARIANT_KEYS = ['viewport', 'platforms', 'repeat', 'steps']
const FRAGMENT_KEYS = ['params', 'when', 'steps']
const SETUP_ONLY = ['hot_restart', 'navigate', 'wait_for_text', 'wait_for_network_idle']
const NAME = /^[a-z0-9_-]+$/
const MAX_INCLUDE_DEPTH = 8
/** Bounds on what aliases may make of a YAML file: uses of an alias (counted as yaml expands
 *  them), and values in the whole once expanded. A scenario has a few dozen of either. */
const MAX_ALIAS_USES = 100
const MAX_EXPANDED_VALUES = 100_000
const WAIT_FOR_TEXT_MS = 15_000
const WHEN_TIMEOUT_MS = 60_000

/** Every problem of a scenario, reported together. */
export class ScenarioError extends UsageError {
  constructor(
    readonly problems: string[],
    title = 'Invalid perf scenario:',
  ) {
    super([title, ...problems.map((problem) => `- ${problem}`)].join('\n'))
  }

  override get multiline(): boolean {
    return true
  }
}

export interface LoadOptions {
  variant?: string
  env: Readonly<Record<string, string | undefined>>
}

/** Reads a YAML file into plain data; an unreadable file or a YAML error is a problem. */
export function readYaml(path: string, shown: string, problems: string[]): unknown {
  let source: string
  try {
    source = readBoundedText(path)
  } catch (error) {
    problems.push(`${shown}: cannot read (${errorCode(error) === 'ENOENT' ? 'no such file' : messageOf(error)})`)
    return undefined
  }
  const document = parseDocument(source, {prettyErrors: false, uniqueKeys: true})
  const [first, ...rest] = document.errors
  if (first) {
    // One broken token makes the parser report every token after it: the first error is the cause.
    // The parser quotes the token it stopped at; the file may be anyone's, so its text is left out.
    const reason = /call stack/i.test(first.message) ? 'it nests too deeply' : first.message.split('\n', 1)[0].replace(/: ".*"$/, '')
    const more = rest.length > 0 ? ` (and ${rest.length} more error(s) that may follow from it)` : ''
    problems.push(`${shown}: YAML: ${where(source, first.pos[0])}${reason}${more}`)
    return undefined
  }
  let data: unknown
  try {
    data = document.toJS({maxAliasCount: MAX_ALIAS_USES})
  } catch {
    // yaml refuses aliases that expand past the bound ("billion laughs").
    problems.push(
      `${shown}: YAML: its aliases expand too far (more than ${MAX_ALIAS_USES} uses, counted as expanded); write the repeated part out`,
    )
    return undefined
  }
  if (expandedSize(data) > MAX_EXPANDED_VALUES) {
    problems.push(`${shown}: YAML: more than ${MAX_EXPANDED_VALUES} values once its aliases are expanded; a scenario is far smaller`)
    return undefined
  }
  return data
}

/** `line L, column C: ` of an offset in the source, as an editor counts them (from 1). */
function where(source: string, offset: number): string {
  if (!Number.isInteger(offset) || offset < 0) return ''
  const before = source.slice(0, offset)
  const line = before.split('\n').length
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}: `
}

/** How many values `data` holds with every alias expanded (a shared object counts each time it
 *  is reached), counting no further than just past the bound. */
function expandedSize(data: unknown): number {
  const pending: unknown[] = [data]
  let count = 0
  while (pending.length > 0 && count <= MAX_EXPANDED_VALUES) {
    const value = pending.pop()
    count++
    if (typeof value !== 'object' || value === null) continue
    for (const item of Array.isArray(value) ? value : Object.entries(value).flat()) {
      pending.push(item)
      if (pending.length + count > MAX_EXPANDED_VALUES) return MAX_EXPANDED_VALUES + 1
    }
  }
  return count
}

/** A scenario file's YAML, read once; throws ScenarioError when it is not a YAML map. */
function readScenarioFile(path: string): {file: string; data: Record<string, unknown>} {
  const problems: string[] = []
  const file = resolve(path)
  const data = readYaml(file, path, problems)
  if (problems.length > 0) throw new ScenarioError(problems)
  if (!isMap(data)) throw new ScenarioError(['the file must be a YAML map (name, steps, ...)'])
  return {file, data}
}

/** The scenario (or one variant of it) in a file's YAML; throws ScenarioError naming every problem. */
function scenarioOf({file, data}: {file: string; data: Record<string, unknown>}, options: LoadOptions): Scenario {
  const problems: string[] = []
  const scenario = readScenario(data, file, options, problems)
  if (problems.length > 0 || !scenario) throw new ScenarioError(problems.length > 0 ? problems : ['the scenario could not be read'])
  return scenario
}

/** Parses a scenario file with the full grammar; throws ScenarioError naming every problem. */
export function loadScenario(path: string, options: LoadOptions): Scenario {
  return scenarioOf(readScenarioFile(path), options)
}

/** Every scenario a file holds, read from one reading of it: one per variant it declares, else
 *  the file's own. */
export function loadScenarios(path: string, env: LoadOptions['env']): Scenario[] {
  const read = readScenarioFile(path)
  const variants = isMap(read.data.variants) ? Object.keys(read.data.variants) : []
  return variants.length === 0 ? [scenarioOf(read, {env})] : variants.map((variant) => scenarioOf(read, {variant, env}))
}

function readScenario(data: Record<string, unknown>, file: string, options: LoadOptions, problems: string[]): Scenario | undefined {
  unknownKeys(data, TOP_KEYS, 'scenario', {problems})
  let name = typeof data.name === 'string' && NAME.test(data.name) ? data.name : undefined
  if (!name)
    problems.push(
      `name: required, lower-case letters, digits, _ and - only (it names the run file; got ${JSON.stringify(data.name ?? null)})`,
    )
  let body: Record<string, unknown> = data
  let variant: string | undefined
  if (data.variants !== undefined) {
    const variants = isMap(data.variants) ? data.variants : undefined
    if (!variants || Object.keys(variants).length === 0)
      problems.push('variants: must be a map of variant names to {viewport, platforms, repeat, steps}')
    else if (options.variant === undefined)
      problems.push(`variants: this file declares ${Object.keys(variants).join(', ')}; name one of them as the variant`)
    else if (!isMap(variants[options.variant]) && variants[options.variant] !== null)
      problems.push(`variant ${options.variant}: not declared here (declared: ${Object.keys(variants).join(', ')})`)
    else {
      const overrides = (variants[options.variant] ?? {}) as Record<string, unknown>
      unknownKeys(overrides, VARIANT_KEYS, `variants.${options.variant}`, {problems})
      body = {...data, ...Object.fromEntries(Object.entries(overrides).filter(([key]) => VARIANT_KEYS.includes(key)))}
      variant = options.variant
      if (!/^[a-z0-9_-]+$/.test(variant)) problems.push(`variants.${variant}: a variant name is lower-case letters, digits, _ and - only`)
      if (name) name = `${name}-${variant}`
    }
  } else if (options.variant !== undefined) {
    problems.push(`variant ${options.variant}: this file declares no variants; leave the variant out`)
  }
  const platforms = body.platforms === undefined ? [...PLATFORMS] : (platformList(body.platforms, 'platforms', problems) ?? [...PLATFORMS])
  const c: ReadContext = {scope: {params: new Map(), env: options.env}, platforms, problems, secrets: new Set()}
  const viewport = body.viewport === undefined ? undefined : readViewport(body.viewport, c)
  const repeat = body.repeat === undefined ? 3 : integer(body.repeat, 'repeat', c, {min: 1})
  const thresholds = body.thresholds === undefined ? DEFAULT_THRESHOLDS : readThresholds(body.thresholds, problems)
  const setup = body.setup === undefined ? [] : readSetup(body.setup, 'setup', c, {dir: dirname(file), stack: [file]})
  let steps: Step[] = []
  if (!Array.isArray(body.steps) || body.steps.length === 0) problems.push('steps: required, a non-empty list')
  else steps = readSteps(body.steps, c)
  if (!name || repeat === undefined || !thresholds) return undefined
  return {
    name,
    ...(variant ? {variant} : {}),
    ...(viewport ? {viewport} : {}),
    platforms,
    setup,
    steps,
    repeat,
    thresholds,
    secrets: [...c.secrets],
  }
}

function readViewport(raw: unknown, c: ReadContext): {width: number; height: number} | undefined {
  if (!isMap(raw)) {
    c.problems.push('viewport: needs {width, height}')
    return undefined
  }
  unknownKeys(raw, ['width', 'height'], 'viewport', c)
  const width = integer(raw.width, 'viewport.width', c, {min: 1})
  const height = integer(raw.height, 'viewport.height', c, {min: 1})
  return width === undefined || height === undefined ? undefined : {width, height}
}

function readThresholds(raw: unknown, problems: string[]): Thresholds | undefined {
  if (!isMap(raw) || typeof raw.warn !== 'number' || typeof raw.error !== 'number') {
    problems.push('thresholds: needs {warn, error}, both numbers (percent)')
    return undefined
  }
  unknownKeys(raw, ['warn', 'error'], 'thresholds', {problems})
  if (!(raw.warn > 0 && raw.warn < raw.error)) {
    problems.push(`thresholds: must satisfy 0 < warn < error (got warn ${raw.warn}, error ${raw.error})`)
    return undefined
  }
  return {warn: raw.warn, error: raw.error}
}

function readSteps(raw: unknown[], c: ReadContext): Step[] {
  const out: Step[] = []
  raw.forEach((entry, index) => {
    const where = `steps[${index}]`
    if (!isMap(entry)) {
      c.problems.push(
        `${where}: ${typeof entry === 'string' ? `${entry} needs arguments (e.g. {${entry}: ...})` : 'must be a map with one verb key'}`,
      )
      return
    }
    const verb = verbOf(entry, where, c)
    if (verb === undefined) return
    if (!STEP_VERBS.some((known) => known === verb)) {
      c.problems.push(
        `${where}: unknown step verb ${verb}${verb === 'include' ? ' (includes belong in setup)' : ''} (steps: ${STEP_VERBS.join(', ')})`,
      )
      return
    }
    const parsed = step(verb, entry[verb], entry, `${where} (${verb})`, c)
    if (parsed) out.push(parsed)
  })
  return out
}

export interface IncludeState {
  dir: string
  /** The files being read, outermost first: a file already on it is a cycle. */
  stack: string[]
}

export function readSetup(raw: unknown, where: string, c: ReadContext, state: IncludeState): SetupEntry[] {
  if (!Array.isArray(raw)) {
    c.problems.push(`${where}: must be a list`)
    return []
  }
  const out: SetupEntry[] = []
  raw.forEach((entry, index) => {
    const at = `${where}[${index}]`
    if (typeof entry === 'string') {
      if (entry === 'hot_restart' || entry === 'wait_for_network_idle') out.push({verb: entry})
      else c.problems.push(`${at}: ${entry} needs arguments, or is not a setup verb`)
      return
    }
    if (!isMap(entry)) {
      c.problems.push(`${at}: must be a verb or a map with one verb key`)
      return
    }
    const verb = verbOf(entry, at, c, entry.include !== undefined ? ['with', 'when'] : [])
    if (verb === undefined) return
    const parsed = setupEntry(verb, entry, `${at} (${verb})`, c, state)
    if (parsed) out.push(parsed)
  })
  return out
}

function setupEntry(
  verb: string,
  entry: Record<string, unknown>,
  where: string,
  c: ReadContext,
  state: IncludeState,
): SetupEntry | undefined {
  if (SETUP_ONLY.includes(verb) && entry.only !== undefined) c.problems.push(`${where}: only is for gestures, not ${verb}`)
  switch (verb) {
    case 'hot_restart':
    case 'wait_for_network_idle':
      if (entry[verb] !== null && entry[verb] !== true) c.problems.push(`${where}: takes no arguments (write it as a bare entry)`)
      return {verb}
    case 'navigate': {
      const route = text(entry.navigate, where, c)
      return route && {verb, route: route.text}
    }
    case 'wait_for_text': {
      const args = entry.wait_for_text
      if (isMap(args)) unknownKeys(args, ['text', 'timeout_ms'], where, c)
      const value = text(isMap(args) ? args.text : args, where, c)
      const timeoutMs =
        isMap(args) && args.timeout_ms !== undefined ? integer(args.timeout_ms, `${where}.timeout_ms`, c, {min: 1}) : WAIT_FOR_TEXT_MS
      return value && timeoutMs !== undefined ? {verb, text: value.text, timeoutMs} : undefined
    }
    case 'include':
      return include(entry, where, c, state)
  }
  if (GESTURE_VERBS.some((gesture) => gesture === verb)) return step(verb, entry[verb], entry, where, c) as Gesture | undefined
  c.problems.push(`${where}: unknown setup verb ${verb} (setup: ${[...SETUP_ONLY, ...GESTURE_VERBS, 'include'].join(', ')})`)
  return undefined
}

function readWhen(raw: unknown, where: string, c: ReadContext): When | undefined {
  if (!isMap(raw)) {
    c.problems.push(`${where}: needs {text, unless_text, timeout_ms}`)
    return undefined
  }
  unknownKeys(raw, ['text', 'unless_text', 'timeout_ms'], where, c)
  if (raw.text === undefined && raw.unless_text === undefined) c.problems.push(`${where}: needs text or unless_text`)
  const shown = raw.text === undefined ? undefined : text(raw.text, `${where}.text`, c)
  const hidden = raw.unless_text === undefined ? undefined : text(raw.unless_text, `${where}.unless_text`, c)
  const timeoutMs = raw.timeout_ms === undefined ? WHEN_TIMEOUT_MS : integer(raw.timeout_ms, `${where}.timeout_ms`, c, {min: 1})
  if (timeoutMs === undefined) return undefined
  return {...(shown ? {text: shown.text} : {}), ...(hidden ? {unlessText: hidden.text} : {}), timeoutMs}
}

function include(entry: Record<string, unknown>, where: string, c: ReadContext, state: IncludeState): SetupEntry | undefined {
  if (entry.only !== undefined) c.problems.push(`${where}: only is for gestures, not include`)
  const relative = text(entry.include, where, c)
  if (!relative) return undefined
  const file = resolve(state.dir, relative.text)
  if (state.stack.includes(file)) {
    c.problems.push(`${where}: ${relative.text} includes itself (${[...state.stack, file].map((f) => f.split('/').at(-1)).join(' -> ')})`)
    return undefined
  }
  if (state.stack.length > MAX_INCLUDE_DEPTH) {
    c.problems.push(`${where}: includes nest deeper than ${MAX_INCLUDE_DEPTH}`)
    return undefined
  }
  const fragment = readYaml(file, relative.text, c.problems)
  if (fragment === undefined) return undefined
  if (!isMap(fragment)) {
    c.problems.push(`${relative.text}: a fragment must be a map with params, when, steps`)
    return undefined
  }
  unknownKeys(fragment, FRAGMENT_KEYS, relative.text, c)
  const scope = fragmentScope(fragment.params, entry.with, where, relative.text, c)
  const inner: ReadContext = {...c, scope}
  const rawWhen = entry.when ?? fragment.when
  const when =
    rawWhen === undefined
      ? undefined
      : readWhen(rawWhen, entry.when !== undefined ? `${where}.when` : `${relative.text}: when`, entry.when !== undefined ? c : inner)
  if (!Array.isArray(fragment.steps) || fragment.steps.length === 0) c.problems.push(`${relative.text}: steps: required, a non-empty list`)
  const setup = readSetup(fragment.steps ?? [], `${relative.text}: steps`, inner, {dir: dirname(file), stack: [...state.stack, file]})
  return {verb: 'include', path: relative.text, ...(when ? {when} : {}), setup}
}

/** The fragment's params, each from `with:` (read in the including scope) or its default. */
function fragmentScope(declared: unknown, given: unknown, where: string, fragment: string, c: ReadContext): Scope {
  const params = new Map<string, Param>()
  if (declared !== undefined && !isMap(declared)) c.problems.push(`${fragment}: params must be a map of name: {default, secret}`)
  if (given !== undefined && !isMap(given)) c.problems.push(`${where}.with: must be a map of param: value`)
  const spec = isMap(declared) ? declared : {}
  const values = isMap(given) ? given : {}
  for (const name of Object.keys(values))
    if (!(name in spec))
      c.problems.push(
        `${where}.with: ${fragment} has no param ${name}${Object.keys(spec).length > 0 ? ` (params: ${Object.keys(spec).join(', ')})` : ''}`,
      )
  for (const [name, raw] of Object.entries(spec)) {
    const options = raw === null ? {} : raw
    if (!isMap(options)) {
      c.problems.push(`${fragment}: params.${name} must be {default, secret} or empty`)
      continue
    }
    unknownKeys(options, ['default', 'secret'], `${fragment}: params.${name}`, c)
    const secret = options.secret === true
    const source =
      values[name] !== undefined
        ? {raw: values[name], at: `${where}.with.${name}`, scope: c}
        : options.default !== undefined
          ? {raw: options.default, at: `${fragment}: params.${name}.default`, scope: {...c, scope: {params: new Map(), env: c.scope.env}}}
          : undefined
    if (!source) {
      c.problems.push(`${where}: ${fragment} needs param ${name}; pass it in with:`)
      params.set(name, {text: `<${name}>`, secret, unresolved: true}) // so its uses raise no second problem
      continue
    }
    const value = text(source.raw, source.at, source.scope, {allowSecret: true, allowEmpty: true})
    if (!value) continue
    let unresolved = value.unresolved === true
    if (secret && !value.secret) {
      if (value.text.length < SECRET_MIN_LENGTH) {
        c.problems.push(`${source.at}: a secret must be at least ${SECRET_MIN_LENGTH} characters`)
        unresolved = true
      } else c.secrets.add(value.text)
    }
    params.set(name, {text: value.text, secret: secret || value.secret, ...(unresolved ? {unresolved} : {})})
  }
  return {params, env: c.scope.env}
}
