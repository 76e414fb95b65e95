import {interpolate, type Scope} from './interpolate.js'
import {PLATFORMS, TARGET_ROLES, type Gesture, type Platform, type Step, type Target, type Value} from './scenario-types.js'

/** Where a reader is in a file, what it may refer to, and where its problems go. */
export interface ReadContext {
  scope: Scope
  platforms: readonly Platform[]
  problems: string[]
  secrets: Set<string>
}

export const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export const SECRET_MIN_LENGTH = 4
const REF_KEYS = ['ref', 'startRef', 'endRef']
/** What each step verb of a scenario is, in the order the file's messages list them: `target`,
 *  it acts on a widget a target names; `setup`, it may be a setup gesture too; `chromeOnly`, it
 *  runs only on Chrome. A step verb of scenario-types.ts without its entry does not compile. */
const STEP_KINDS: Readonly<Record<Step['verb'], {target?: true; setup?: true; chromeOnly?: true}>> = {
  tap: {target: true, setup: true},
  fill: {target: true, setup: true},
  type: {target: true, setup: true},
  press_key: {setup: true},
  scroll: {target: true},
  wheel: {target: true, setup: true, chromeOnly: true},
  drag: {target: true, setup: true},
  navigate: {},
  resize: {chromeOnly: true},
  wait: {setup: true},
}
export const STEP_VERBS: readonly Step['verb'][] = Object.keys(STEP_KINDS) as Step['verb'][]
export const GESTURE_VERBS: readonly Step['verb'][] = STEP_VERBS.filter((verb) => STEP_KINDS[verb].setup)
const kindOf = (verb: string) => (Object.hasOwn(STEP_KINDS, verb) ? STEP_KINDS[verb as Step['verb']] : undefined)

/** A scalar read as text with `${...}` filled in; secrets are refused unless `allowSecret`. */
export function text(
  raw: unknown,
  where: string,
  c: ReadContext,
  options: {allowSecret?: boolean; allowEmpty?: boolean} = {},
): Value | undefined {
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
    c.problems.push(`${where}: expected a text value`)
    return undefined
  }
  const value =
    typeof raw === 'string'
      ? interpolate(raw, c.scope, (problem) => c.problems.push(`${where}: ${problem}`))
      : {text: String(raw), secret: false}
  if (value.secret) {
    if (!options.allowSecret) {
      c.problems.push(`${where}: a secret may only be typed (the text of fill or type)`)
      return undefined
    }
    if (value.unresolved) return value
    if (value.text.length < SECRET_MIN_LENGTH) {
      c.problems.push(`${where}: a secret must be at least ${SECRET_MIN_LENGTH} characters`)
      return {...value, unresolved: true}
    }
    c.secrets.add(value.text)
  }
  if (!options.allowEmpty && value.text === '' && !value.unresolved) c.problems.push(`${where}: must not be empty`)
  return value
}

/** An integer (a YAML number, or a text that interpolates to one) within bounds. */
export function integer(raw: unknown, where: string, c: ReadContext, bounds: {min: number; max?: number}): number | undefined {
  const value = typeof raw === 'string' ? Number(text(raw, where, c)?.text) : raw
  const range =
    bounds.max === undefined
      ? bounds.min === 1
        ? 'a positive integer'
        : `an integer of at least ${bounds.min}`
      : `an integer from ${bounds.min} to ${bounds.max}`
  if (typeof value !== 'number' || !Number.isInteger(value) || value < bounds.min || (bounds.max !== undefined && value > bounds.max)) {
    c.problems.push(`${where}: must be ${range} (got ${JSON.stringify(raw)})`)
    return undefined
  }
  return value
}

function number(raw: unknown, where: string, c: ReadContext): number | undefined {
  if (raw === undefined) return 0
  const value = typeof raw === 'string' ? Number(text(raw, where, c)?.text) : raw
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    c.problems.push(`${where}: must be a number (got ${JSON.stringify(raw)})`)
    return undefined
  }
  return value
}

export function platformList(
  raw: unknown,
  where: string,
  problems: string[],
  allowed: readonly Platform[] = PLATFORMS,
): Platform[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.push(`${where}: must be a non-empty list of ${allowed.join(', ')}`)
    return undefined
  }
  const platforms = raw.flatMap((item: unknown) => allowed.filter((platform) => platform === item))
  if (platforms.length < raw.length) {
    const bad = raw.filter((item: unknown) => !allowed.some((platform) => platform === item))
    problems.push(`${where}: ${bad.map((item) => JSON.stringify(item)).join(', ')} not among ${allowed.join(', ')}`)
    return undefined
  }
  return [...new Set(platforms)]
}

export function target(raw: unknown, where: string, c: ReadContext): Target | undefined {
  if (!isMap(raw)) {
    c.problems.push(`${where}: needs a target map with one of text, label, role (with name), key`)
    return undefined
  }
  const kinds = ['text', 'label', 'role', 'key'].filter((kind) => raw[kind] !== undefined)
  const unknown = Object.keys(raw).filter((key) => !['text', 'label', 'role', 'key', 'name', 'index'].includes(key))
  if (unknown.length > 0) c.problems.push(`${where}: unknown target key ${unknown.join(', ')}`)
  const [kind] = kinds
  if (kind === undefined || kinds.length !== 1) {
    c.problems.push(`${where}: a target has exactly one of text, label, role, key (got ${kinds.length === 0 ? 'none' : kinds.join(', ')})`)
    return undefined
  }
  const index = raw.index === undefined ? 0 : integer(raw.index, `${where}.index`, c, {min: 0})
  if (raw.index !== undefined && (kind === 'key' || kind === 'label'))
    c.problems.push(`${where}: index is not allowed on a ${kind} target (a ${kind} names one widget)`)
  if (raw.name !== undefined && kind !== 'role') c.problems.push(`${where}: name goes with role only`)
  const value = text(raw[kind], `${where}.${kind}`, c)
  if (!value || index === undefined) return undefined
  switch (kind) {
    case 'text':
      return {by: 'text', text: value.text, index}
    case 'label':
      return {by: 'label', label: value.text}
    case 'key':
      return {by: 'key', key: value.text}
    default: {
      const role = TARGET_ROLES.find((known) => known === value.text)
      if (!role) {
        c.problems.push(`${where}.role: must be one of ${TARGET_ROLES.join(', ')} (got ${JSON.stringify(value.text)})`)
        return undefined
      }
      const name = raw.name === undefined ? undefined : text(raw.name, `${where}.name`, c)
      if (raw.name === undefined) c.problems.push(`${where}: a role target needs name (the label of the widget)`)
      if (!name) return undefined
      return {by: 'role', role, name: name.text, index}
    }
  }
}

function onlyOf(entry: Record<string, unknown>, where: string, c: ReadContext): Platform[] | undefined {
  if (entry.only === undefined) return undefined
  return platformList(entry.only, `${where}.only`, c.problems, c.platforms)
}

/** One step (or setup gesture): `{<verb>: <args>, only?: [...]}`. `verbs` is what this place allows. */
export function step(verb: string, args: unknown, entry: Record<string, unknown>, where: string, c: ReadContext): Step | undefined {
  const only = onlyOf(entry, where, c)
  const scoped = only ? {only} : {}
  if (kindOf(verb)?.chromeOnly && (only ?? c.platforms).some((platform) => platform !== 'chrome')) {
    c.problems.push(`${where}: ${verb} runs only on Chrome. Add \`only: [chrome]\``)
  }
  if (kindOf(verb)?.target) return targetStep(verb, args, where, c, scoped)
  switch (verb) {
    case 'navigate': {
      const route = text(args, where, c)
      return route && {verb, route: route.text, ...scoped}
    }
    case 'wait': {
      const ms = integer(args, where, c, {min: 1})
      return ms === undefined ? undefined : {verb, ms, ...scoped}
    }
    case 'press_key': {
      const raw = isMap(args) ? args.key : args
      if (isMap(args)) unknownKeys(args, ['key'], where, c)
      const key = text(raw, isMap(args) ? `${where}.key` : where, c)
      return key && {verb, key: key.text, ...scoped}
    }
    case 'resize': {
      if (!isMap(args)) {
        c.problems.push(`${where}: needs {width, height}`)
        return undefined
      }
      unknownKeys(args, ['width', 'height'], where, c)
      const width = integer(args.width, `${where}.width`, c, {min: 1})
      const height = integer(args.height, `${where}.height`, c, {min: 1})
      return width === undefined || height === undefined ? undefined : {verb, width, height, ...scoped}
    }
  }
  return undefined
}

function targetStep(verb: string, args: unknown, where: string, c: ReadContext, scoped: {only?: Platform[]}): Gesture | undefined {
  if (!isMap(args)) {
    c.problems.push(`${where}: needs a map with target`)
    return undefined
  }
  for (const key of REF_KEYS)
    if (args[key] !== undefined)
      c.problems.push(`${where}: ${key} is not allowed: a ref is stale after the next navigate; name the widget with target`)
  const allowed = [
    'target',
    ...(verb === 'fill' || verb === 'type' ? ['text'] : []),
    ...(verb === 'scroll' || verb === 'wheel' || verb === 'drag' ? ['dx', 'dy'] : []),
    ...(verb === 'wheel' ? ['ticks'] : []),
  ]
  unknownKeys(args, [...allowed, ...REF_KEYS], where, c)
  const widget = target(args.target, `${where}.target`, c)
  if (verb === 'tap') return widget && {verb, target: widget, ...scoped}
  if (verb === 'fill' || verb === 'type') {
    const typed =
      args.text === undefined
        ? (c.problems.push(`${where}: needs non-empty text`), undefined)
        : text(args.text, `${where}.text`, c, {allowSecret: true})
    return widget && typed && {verb, target: widget, text: typed, ...scoped}
  }
  const dx = number(args.dx, `${where}.dx`, c)
  const dy = number(args.dy, `${where}.dy`, c)
  if (dx === 0 && dy === 0) c.problems.push(`${where}: ${verb} needs a non-zero dx or dy`)
  if (!widget || dx === undefined || dy === undefined) return undefined
  if (verb === 'wheel') {
    const ticks = args.ticks === undefined ? 1 : integer(args.ticks, `${where}.ticks`, c, {min: 1, max: 200})
    return ticks === undefined ? undefined : {verb, target: widget, dx, dy, ticks, ...scoped}
  }
  return {verb: verb as 'scroll' | 'drag', target: widget, dx, dy, ...scoped}
}

export function unknownKeys(map: Record<string, unknown>, allowed: readonly string[], where: string, c: {problems: string[]}): void {
  for (const key of Object.keys(map))
    if (!allowed.includes(key))
      c.problems.push(`${where}: unknown key ${key}${allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : ''}`)
}

/** The one verb key of an entry map (besides `only` and the include's own keys), or a problem. */
export function verbOf(
  entry: Record<string, unknown>,
  where: string,
  c: {problems: string[]},
  extra: readonly string[] = [],
): string | undefined {
  const keys = Object.keys(entry).filter((key) => key !== 'only' && !extra.includes(key))
  if (keys.length !== 1) {
    c.problems.push(`${where}: an entry has exactly one verb key (got ${keys.length === 0 ? 'none' : keys.join(', ')})`)
    return undefined
  }
  return keys[0]
}
