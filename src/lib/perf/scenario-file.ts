import {dirname, resolve} from 'node:path'
import {parseDocument} from 'yaml'
import {UsageError, messageOf, errorCode} from '../errors.js'
import {readBoundedText} from '../read-bounded.js'
import {readAll, type Shape, type ShapeMismatch} from '../shape.js'
import type {Param, Scope} from './interpolate.js'
import {DEFAULT_THRESHOLDS, type Thresholds} from './run-file.js'
import {
  GESTURE_VERBS,
  SECRET_MIN_LENGTH,
  STEP_VERBS,
  integer,
  into,
  isMap,
  map,
  part,
  platformList,
  problem,
  step,
  take,
  textValue,
  unknownKeys,
  verbOf,
  wording,
  type ReadContext,
  type Report,
} from './scenario-entries.js'
import {PLATFORMS, type Scenario, type SetupEntry, type Step, type When} from './scenario-types.js'

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
export function readYaml(path: string, shown: string, report: Report): unknown {
  let source: string
  try {
    source = readBoundedText(path)
  } catch (error) {
    problem(report, shown, path, `cannot read (${errorCode(error) === 'ENOENT' ? 'no such file' : messageOf(error)})`)
    return undefined
  }
  const document = parseDocument(source, {prettyErrors: false, uniqueKeys: true})
  const [first, ...rest] = document.errors
  if (first) {
    // One broken token makes the parser report every token after it: the first error is the cause.
    // The parser quotes the token it stopped at; the file may be anyone's, so its text is left out.
    const reason = /call stack/i.test(first.message) ? 'it nests too deeply' : first.message.split('\n', 1)[0].replace(/: ".*"$/, '')
    const more = rest.length > 0 ? ` (and ${rest.length} more error(s) that may follow from it)` : ''
    problem(report, shown, path, `YAML: ${where(source, first.pos[0])}${reason}${more}`)
    return undefined
  }
  let data: unknown
  try {
    data = document.toJS({maxAliasCount: MAX_ALIAS_USES})
  } catch {
    // yaml refuses aliases that expand past the bound ("billion laughs").
    problem(
      report,
      shown,
      path,
      `YAML: its aliases expand too far (more than ${MAX_ALIAS_USES} uses, counted as expanded); write the repeated part out`,
    )
    return undefined
  }
  if (expandedSize(data) > MAX_EXPANDED_VALUES) {
    problem(report, shown, path, `YAML: more than ${MAX_EXPANDED_VALUES} values once its aliases are expanded; a scenario is far smaller`)
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
  const data = readYaml(file, path, into(problems))
  if (problems.length > 0) throw new ScenarioError(problems)
  if (!isMap(data)) throw new ScenarioError(['the file must be a YAML map (name, steps, ...)'])
  return {file, data}
}

/** The scenario (or one variant of it) in a file's YAML; throws ScenarioError naming every problem. */
function scenarioOf({file, data}: {file: string; data: Record<string, unknown>}, options: LoadOptions): Scenario {
  const read = readAll(scenarioShape(file, options), data)
  if ('mismatches' in read) throw new ScenarioError(read.mismatches.map(wording))
  // Every part that gives no value has said why; this is the guard should one not.
  if (read.value === undefined) throw new ScenarioError(['the scenario could not be read'])
  return read.value
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

/** A scenario file's map, the variant of `options` merged in, read as the scenario. */
const scenarioShape = (file: string, options: LoadOptions): Shape<Scenario> =>
  part((data, _where, report) => {
    if (!isMap(data)) return undefined
    unknownKeys(data, TOP_KEYS, 'scenario', report)
    let name = typeof data.name === 'string' && NAME.test(data.name) ? data.name : undefined
    if (!name)
      problem(
        report,
        'name',
        data.name,
        `required, lower-case letters, digits, _ and - only (it names the run file; got ${JSON.stringify(data.name ?? null)})`,
      )
    const body = variantOf(data, options, report)
    if (name && options.variant !== undefined && body !== data) name = `${name}-${options.variant}`
    const platforms =
      body.platforms === undefined ? [...PLATFORMS] : (take(platformList(), body.platforms, 'platforms', report) ?? [...PLATFORMS])
    const c: ReadContext = {scope: {params: new Map(), env: options.env}, platforms, secrets: new Set()}
    const viewport = body.viewport === undefined ? undefined : take(SIZE(c), body.viewport, 'viewport', report)
    const repeat = take(integer(c, {min: 1}, 3), body.repeat, 'repeat', report)
    const thresholds = body.thresholds === undefined ? DEFAULT_THRESHOLDS : take(THRESHOLDS_SHAPE, body.thresholds, 'thresholds', report)
    const setup =
      body.setup === undefined ? [] : readSetup(body.setup, 'setup', c, {dir: dirname(file), stack: [file], files: new Map()}, report)
    const steps =
      !Array.isArray(body.steps) || body.steps.length === 0
        ? problem(report, 'steps', body.steps, 'required, a non-empty list')
        : readSteps(body.steps, c, report)
    if (!name || repeat === undefined || !thresholds || !steps || (body.viewport !== undefined && !viewport)) return undefined
    return {
      name,
      ...(body !== data ? {variant: options.variant} : {}),
      ...(viewport ? {viewport} : {}),
      platforms,
      setup,
      steps,
      repeat,
      thresholds,
      secrets: [...c.secrets],
    }
  })

const SIZE = (c: ReadContext) => map({width: integer(c, {min: 1}), height: integer(c, {min: 1})}, 'needs {width, height}')

const THRESHOLDS_SHAPE = part<Thresholds>((raw, where, report) => {
  if (!isMap(raw) || typeof raw.warn !== 'number' || typeof raw.error !== 'number')
    return problem(report, where, raw, 'needs {warn, error}, both numbers (percent)')
  unknownKeys(raw, ['warn', 'error'], where, report)
  if (raw.warn > 0 && raw.warn < raw.error) return {warn: raw.warn, error: raw.error}
  return problem(report, where, raw, `must satisfy 0 < warn < error (got warn ${raw.warn}, error ${raw.error})`)
})

/** The file's map with the overrides of the variant `options` names (the map itself when it
 *  declares none, or the variant is not one of them). */
function variantOf(data: Record<string, unknown>, options: LoadOptions, report: Report): Record<string, unknown> {
  const {variant} = options
  if (data.variants === undefined) {
    if (variant !== undefined) problem(report, `variant ${variant}`, variant, 'this file declares no variants; leave the variant out')
    return data
  }
  const variants = isMap(data.variants) ? data.variants : {}
  const declared = Object.keys(variants).join(', ')
  if (declared === '') problem(report, 'variants', data.variants, 'must be a map of variant names to {viewport, platforms, repeat, steps}')
  else if (variant === undefined)
    problem(report, 'variants', data.variants, `this file declares ${declared}; name one of them as the variant`)
  else if (!isMap(variants[variant]) && variants[variant] !== null)
    problem(report, `variant ${variant}`, variant, `not declared here (declared: ${declared})`)
  else {
    const overrides = variants[variant] ?? {}
    if (!isMap(overrides)) return data
    unknownKeys(overrides, VARIANT_KEYS, `variants.${variant}`, report)
    if (!NAME.test(variant)) problem(report, `variants.${variant}`, variant, 'a variant name is lower-case letters, digits, _ and - only')
    return {...data, ...Object.fromEntries(Object.entries(overrides).filter(([key]) => VARIANT_KEYS.includes(key)))}
  }
  return data
}

function readSteps(raw: unknown[], c: ReadContext, report: Report): Step[] | undefined {
  const steps = raw.map((entry, index) => {
    const where = `steps[${index}]`
    if (!isMap(entry))
      return problem(
        report,
        where,
        entry,
        typeof entry === 'string' ? `${entry} needs arguments (e.g. {${entry}: ...})` : 'must be a map with one verb key',
      )
    const verb = verbOf(entry, where, report)
    if (verb === undefined) return undefined
    if (!STEP_VERBS.some((known) => known === verb))
      return problem(
        report,
        where,
        entry,
        `unknown step verb ${verb}${verb === 'include' ? ' (includes belong in setup)' : ''} (steps: ${STEP_VERBS.join(', ')})`,
      )
    return step(verb, entry, `${where} (${verb})`, c, report)
  })
  return steps.every((entry) => entry !== undefined) ? steps : undefined
}

export interface IncludeState {
  dir: string
  /** The files being read, outermost first: a file already on it is a cycle. */
  stack: string[]
  /** Each fragment as read from its file, read once however often the scenario is walked. */
  files: Map<string, {data: unknown; problems: ShapeMismatch[]}>
}

export function readSetup(raw: unknown, where: string, c: ReadContext, state: IncludeState, report: Report): SetupEntry[] {
  if (!Array.isArray(raw)) return problem(report, where, raw, 'must be a list') ?? []
  return raw.flatMap((entry: unknown, index) => {
    const at = `${where}[${index}]`
    if (entry === 'hot_restart' || entry === 'wait_for_network_idle') return [{verb: entry}]
    if (typeof entry === 'string') return problem(report, at, entry, `${entry} needs arguments, or is not a setup verb`) ?? []
    if (!isMap(entry)) return problem(report, at, entry, 'must be a verb or a map with one verb key') ?? []
    const verb = verbOf(entry, at, report, entry.include !== undefined ? ['with', 'when'] : [])
    return (verb !== undefined && setupEntry(verb, entry, `${at} (${verb})`, c, state, report)) || []
  })
}

function setupEntry(
  verb: string,
  entry: Record<string, unknown>,
  where: string,
  c: ReadContext,
  state: IncludeState,
  report: Report,
): SetupEntry | undefined {
  if (SETUP_ONLY.includes(verb) && entry.only !== undefined) problem(report, where, entry, `only is for gestures, not ${verb}`)
  switch (verb) {
    case 'hot_restart':
    case 'wait_for_network_idle':
      if (entry[verb] !== null && entry[verb] !== true) problem(report, where, entry, 'takes no arguments (write it as a bare entry)')
      return {verb}
    case 'navigate': {
      const route = textValue(entry.navigate, where, c, report)
      return route && {verb, route: route.text}
    }
    case 'wait_for_text': {
      const args = entry.wait_for_text
      if (isMap(args)) unknownKeys(args, ['text', 'timeout_ms'], where, report)
      const value = textValue(isMap(args) ? args.text : args, where, c, report)
      const timeoutMs = take(
        integer(c, {min: 1}, WAIT_FOR_TEXT_MS),
        isMap(args) ? args.timeout_ms : undefined,
        `${where}.timeout_ms`,
        report,
      )
      return value && timeoutMs !== undefined ? {verb, text: value.text, timeoutMs} : undefined
    }
    case 'include':
      return include(entry, where, c, state, report)
  }
  if (GESTURE_VERBS.some((gesture) => gesture === verb)) {
    const gesture = step(verb, entry, where, c, report)
    return gesture?.verb === 'navigate' || gesture?.verb === 'resize' ? undefined : gesture
  }
  return problem(report, where, entry, `unknown setup verb ${verb} (setup: ${[...SETUP_ONLY, ...GESTURE_VERBS, 'include'].join(', ')})`)
}

const WHEN = (c: ReadContext) =>
  part<When>((raw, where, report) => {
    if (!isMap(raw)) return problem(report, where, raw, 'needs {text, unless_text, timeout_ms}')
    unknownKeys(raw, ['text', 'unless_text', 'timeout_ms'], where, report)
    if (raw.text === undefined && raw.unless_text === undefined) problem(report, where, raw, 'needs text or unless_text')
    const shown = raw.text === undefined ? undefined : textValue(raw.text, `${where}.text`, c, report)
    const hidden = raw.unless_text === undefined ? undefined : textValue(raw.unless_text, `${where}.unless_text`, c, report)
    const timeoutMs = take(integer(c, {min: 1}, WHEN_TIMEOUT_MS), raw.timeout_ms, `${where}.timeout_ms`, report)
    if (timeoutMs === undefined) return undefined
    return {...(shown ? {text: shown.text} : {}), ...(hidden ? {unlessText: hidden.text} : {}), timeoutMs}
  })

function include(
  entry: Record<string, unknown>,
  where: string,
  c: ReadContext,
  state: IncludeState,
  report: Report,
): SetupEntry | undefined {
  if (entry.only !== undefined) problem(report, where, entry, 'only is for gestures, not include')
  const relative = textValue(entry.include, where, c, report)
  if (!relative) return undefined
  const file = resolve(state.dir, relative.text)
  if (state.stack.includes(file))
    return problem(
      report,
      where,
      entry,
      `${relative.text} includes itself (${[...state.stack, file].map((f) => f.split('/').at(-1)).join(' -> ')})`,
    )
  if (state.stack.length > MAX_INCLUDE_DEPTH) return problem(report, where, entry, `includes nest deeper than ${MAX_INCLUDE_DEPTH}`)
  let read = state.files.get(file)
  if (!read) {
    const problems: ShapeMismatch[] = []
    read = {data: readYaml(file, relative.text, (mismatch) => problems.push(mismatch)), problems}
    state.files.set(file, read)
  }
  read.problems.forEach(report)
  const fragment = read.data
  if (fragment === undefined) return undefined
  if (!isMap(fragment)) return problem(report, relative.text, fragment, 'a fragment must be a map with params, when, steps')
  unknownKeys(fragment, FRAGMENT_KEYS, relative.text, report)
  const inner: ReadContext = {...c, scope: fragmentScope(fragment.params, entry.with, where, relative.text, c, report)}
  const when =
    entry.when !== undefined
      ? take(WHEN(c), entry.when, `${where}.when`, report)
      : fragment.when === undefined
        ? undefined
        : take(WHEN(inner), fragment.when, `${relative.text}: when`, report)
  if (!Array.isArray(fragment.steps) || fragment.steps.length === 0)
    problem(report, `${relative.text}: steps`, fragment.steps, 'required, a non-empty list')
  const setup = readSetup(
    fragment.steps ?? [],
    `${relative.text}: steps`,
    inner,
    {...state, dir: dirname(file), stack: [...state.stack, file]},
    report,
  )
  return {verb: 'include', path: relative.text, ...(when ? {when} : {}), setup}
}

/** The fragment's params, each from `with:` (read in the including scope) or its default. */
function fragmentScope(declared: unknown, given: unknown, where: string, fragment: string, c: ReadContext, report: Report): Scope {
  const params = new Map<string, Param>()
  if (declared !== undefined && !isMap(declared)) problem(report, fragment, declared, 'params must be a map of name: {default, secret}')
  if (given !== undefined && !isMap(given)) problem(report, `${where}.with`, given, 'must be a map of param: value')
  const spec = isMap(declared) ? declared : {}
  const values = isMap(given) ? given : {}
  for (const name of Object.keys(values))
    if (!(name in spec))
      problem(
        report,
        `${where}.with`,
        values,
        `${fragment} has no param ${name}${Object.keys(spec).length > 0 ? ` (params: ${Object.keys(spec).join(', ')})` : ''}`,
      )
  for (const [name, raw] of Object.entries(spec)) {
    const options = raw === null ? {} : raw
    if (!isMap(options)) {
      problem(report, `${fragment}: params.${name}`, raw, 'must be {default, secret} or empty')
      continue
    }
    unknownKeys(options, ['default', 'secret'], `${fragment}: params.${name}`, report)
    const secret = options.secret === true
    const source =
      values[name] !== undefined
        ? {raw: values[name], at: `${where}.with.${name}`, scope: c}
        : options.default !== undefined
          ? {raw: options.default, at: `${fragment}: params.${name}.default`, scope: {...c, scope: {params: new Map(), env: c.scope.env}}}
          : undefined
    if (!source) {
      problem(report, where, spec, `${fragment} needs param ${name}; pass it in with:`)
      params.set(name, {text: `<${name}>`, secret, unresolved: true}) // so its uses raise no second problem
      continue
    }
    const value = textValue(source.raw, source.at, source.scope, report, {allowSecret: true, allowEmpty: true})
    if (!value) continue
    let unresolved = value.unresolved === true
    if (secret && !value.secret) {
      if (value.text.length < SECRET_MIN_LENGTH) {
        problem(report, source.at, source.raw, `a secret must be at least ${SECRET_MIN_LENGTH} characters`)
        unresolved = true
      } else c.secrets.add(value.text)
    }
    params.set(name, {text: value.text, secret: secret || value.secret, ...(unresolved ? {unresolved} : {})})
  }
  return {params, env: c.scope.env}
}
