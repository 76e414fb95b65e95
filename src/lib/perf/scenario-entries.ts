import {ShapeMismatch, converted, custom, isJsonObject, object, type JsonObject, type Shape} from '../shape.js'
import {interpolate, type Scope} from './interpolate.js'
import {PLATFORMS, TARGET_ROLES, type Platform, type Step, type Target, type Value} from './scenario-types.js'

/** What a part of a scenario is read in: what `${...}` may name, the platforms its steps run on,
 *  and where the secrets it types are kept (for output to mask). */
export interface ReadContext {
  scope: Scope
  platforms: readonly Platform[]
  secrets: Set<string>
}

export type Report = (mismatch: ShapeMismatch) => void

export const isMap = isJsonObject

/** A problem in a scenario's words: `<where>: <text>`. */
export function problem(report: Report, where: string, value: unknown, text: string): undefined {
  report(new ShapeMismatch(where, value, 'a valid scenario', text))
  return undefined
}

/** How a file's problem is listed. */
export const wording = (mismatch: ShapeMismatch): string => `${mismatch.path}: ${mismatch.problem ?? `must be ${mismatch.expected}`}`

/** A report that lists each problem in `problems`. */
export const into =
  (problems: string[]): Report =>
  (mismatch) =>
    problems.push(wording(mismatch))

const ignore: Report = () => undefined

/**
 * A part of a scenario as a shape, from one walk over it that both reports its problems and
 * gives its value: checking reports, reading gives the value (with `${...}` filled in). The
 * grammar reads each part in its context (a fragment's params, the variant's platforms), which
 * a shape of fixed fields cannot know, so each part is made for its context.
 */
export function part<T>(walk: Walk<T>): Part<T> {
  return {
    ...custom<T>(
      'a valid scenario',
      (value, where, report) => void walk(value, where, report),
      false,
      (value, where) => walk(value, where, ignore),
    ),
    walk,
  }
}

type Walk<T> = (value: unknown, where: string, report: Report) => T | undefined
type Part<T> = Shape<T> & {walk: Walk<T>}

/** `shape`'s value at `where`, or undefined with its problems reported: a part in one walk. */
export function take<T>(shape: Shape<T> | Part<T>, value: unknown, where: string, report: Report): T | undefined {
  if ('walk' in shape) return shape.walk(value, where, report)
  let fits = true
  shape.check(value, where, (mismatch) => {
    fits = false
    report(mismatch)
  })
  return fits ? shape.read(value, where) : undefined
}

export const SECRET_MIN_LENGTH = 4
const REF_KEYS = ['ref', 'startRef', 'endRef']

/** A scalar as text with `${...}` filled in (the value-rewriting step of a scenario); secrets are
 *  refused unless `allowSecret`, and a secret's text is kept in `c.secrets`. */
export function textValue(
  raw: unknown,
  where: string,
  c: ReadContext,
  report: Report,
  options: {allowSecret?: boolean; allowEmpty?: boolean} = {},
): Value | undefined {
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean')
    return problem(report, where, raw, 'expected a text value')
  const value =
    typeof raw === 'string' ? interpolate(raw, c.scope, (text) => problem(report, where, raw, text)) : {text: String(raw), secret: false}
  if (value.secret) {
    if (!options.allowSecret) return problem(report, where, raw, 'a secret may only be typed (the text of fill or type)')
    if (value.unresolved) return value
    if (value.text.length < SECRET_MIN_LENGTH) {
      problem(report, where, raw, `a secret must be at least ${SECRET_MIN_LENGTH} characters`)
      return {...value, unresolved: true}
    }
    c.secrets.add(value.text)
  }
  if (!options.allowEmpty && value.text === '' && !value.unresolved) problem(report, where, raw, 'must not be empty')
  return value
}

/** A scalar as text, `${...}` filled in. */
const text = (c: ReadContext): Shape<Value> => part((raw, where, report) => textValue(raw, where, c, report))

/** An integer (a YAML number, or a text that fills in to one) within bounds; `fallback` when absent. */
export function integer(c: ReadContext, bounds: {min: number; max?: number}, fallback?: number): Shape<number> {
  const range =
    bounds.max === undefined
      ? bounds.min === 1
        ? 'a positive integer'
        : `an integer of at least ${bounds.min}`
      : `an integer from ${bounds.min} to ${bounds.max}`
  return part((raw, where, report) => {
    if (raw === undefined && fallback !== undefined) return fallback
    const value = typeof raw === 'string' ? Number(textValue(raw, where, c, report)?.text) : raw
    if (typeof value === 'number' && Number.isInteger(value) && value >= bounds.min && (bounds.max === undefined || value <= bounds.max))
      return value
    return problem(report, where, raw, `must be ${range} (got ${JSON.stringify(raw)})`)
  })
}

/** A number (or a text that fills in to one); 0 when absent. */
const number = (c: ReadContext): Shape<number> =>
  part((raw, where, report) => {
    if (raw === undefined) return 0
    const value = typeof raw === 'string' ? Number(textValue(raw, where, c, report)?.text) : raw
    if (typeof value === 'number' && Number.isFinite(value)) return value
    return problem(report, where, raw, `must be a number (got ${JSON.stringify(raw)})`)
  })

/** A non-empty list of `allowed` platforms, each once. */
export const platformList = (allowed: readonly Platform[] = PLATFORMS): Shape<Platform[]> =>
  part((raw, where, report) => {
    if (!Array.isArray(raw) || raw.length === 0) return problem(report, where, raw, `must be a non-empty list of ${allowed.join(', ')}`)
    const platforms = raw.flatMap((item: unknown) => allowed.filter((platform) => platform === item))
    if (platforms.length === raw.length) return [...new Set(platforms)]
    const bad = raw.filter((item: unknown) => !allowed.some((platform) => platform === item))
    return problem(report, where, raw, `${bad.map((item) => JSON.stringify(item)).join(', ')} not among ${allowed.join(', ')}`)
  })

/** An object of `fields` and no other key (but `alsoAllowed`, which the caller words); `need`
 *  says what it is when it is not a map. Each field is read at `where.<name>` by its shape. */
export function map<const F extends Record<string, Shape<unknown>>>(fields: F, need: string, alsoAllowed: readonly string[] = []) {
  const shape = object(fields)
  return part((raw, where, report) => {
    if (!isMap(raw)) return problem(report, where, raw, need)
    unknownKeys(raw, [...Object.keys(fields), ...alsoAllowed], where, report)
    return take(shape, raw, where, report)
  })
}

export function unknownKeys(raw: JsonObject, allowed: readonly string[], where: string, report: Report): void {
  for (const key of Object.keys(raw))
    if (!allowed.includes(key))
      problem(report, where, raw, `unknown key ${key}${allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : ''}`)
}

const TARGET_KINDS = ['text', 'label', 'role', 'key'] as const

/** A widget named by what a user sees: exactly one of text, label, role (with name), key. */
const target = (c: ReadContext): Shape<Target> =>
  part((raw, where, report) => {
    if (!isMap(raw)) return problem(report, where, raw, 'needs a target map with one of text, label, role (with name), key')
    const unknown = Object.keys(raw).filter((key) => ![...TARGET_KINDS, 'name', 'index'].some((known) => known === key))
    if (unknown.length > 0) problem(report, where, raw, `unknown target key ${unknown.join(', ')}`)
    const kinds = TARGET_KINDS.filter((kind) => raw[kind] !== undefined)
    const [kind] = kinds
    if (kind === undefined || kinds.length !== 1)
      return problem(
        report,
        where,
        raw,
        `a target has exactly one of text, label, role, key (got ${kinds.length === 0 ? 'none' : kinds.join(', ')})`,
      )
    const index = take(integer(c, {min: 0}, 0), raw.index, `${where}.index`, report)
    if (raw.index !== undefined && (kind === 'key' || kind === 'label'))
      problem(report, where, raw, `index is not allowed on a ${kind} target (a ${kind} names one widget)`)
    if (raw.name !== undefined && kind !== 'role') problem(report, where, raw, 'name goes with role only')
    const value = textValue(raw[kind], `${where}.${kind}`, c, report)
    if (!value || index === undefined) return undefined
    if (kind === 'text') return {by: 'text', text: value.text, index}
    if (kind === 'label') return {by: 'label', label: value.text}
    if (kind === 'key') return {by: 'key', key: value.text}
    const role = TARGET_ROLES.find((known) => known === value.text)
    if (!role) return problem(report, `${where}.role`, raw, `must be one of ${TARGET_ROLES.join(', ')} (got ${JSON.stringify(value.text)})`)
    const name = raw.name === undefined ? undefined : textValue(raw.name, `${where}.name`, c, report)
    if (raw.name === undefined) problem(report, where, raw, 'a role target needs name (the label of the widget)')
    return name && {by: 'role', role, name: name.text, index}
  })

/** A step verb acting on a widget its `target` names, with `fields` beside it. A ref is refused:
 *  it is stale after the next navigate. */
function gesture<const F extends Record<string, Shape<unknown>>>(c: ReadContext, verb: Step['verb'], fields: F) {
  const shape = map({target: target(c), ...fields}, 'needs a map with target', REF_KEYS)
  return part((raw, where, report) => {
    if (isMap(raw)) {
      for (const key of REF_KEYS)
        if (raw[key] !== undefined)
          problem(report, where, raw, `${key} is not allowed: a ref is stale after the next navigate; name the widget with target`)
      if ('text' in fields && raw.text === undefined) problem(report, where, raw, 'needs non-empty text')
    }
    const read = take(shape, raw, where, report)
    const still = (key: string) => isMap(raw) && take(number(c), raw[key], where, ignore) === 0
    if ('dx' in fields && still('dx') && still('dy')) return problem(report, where, raw, `${verb} needs a non-zero dx or dy`)
    return read
  })
}

/** fill's and type's text: the one place a secret may go (gesture says when it is missing). */
const typed = (c: ReadContext): Shape<Value> =>
  part((raw, where, report) => (raw === undefined ? undefined : textValue(raw, where, c, report, {allowSecret: true})))

/** A step verb's fields beside `verb` and `only`, as scenario-types.ts gives them. */
type ArgsOf<V extends Step['verb']> = Step extends infer S
  ? S extends {verb: infer W}
    ? V extends W
      ? Omit<S, 'verb' | 'only'>
      : never
    : never
  : never

/** Each step verb: what it takes (its fields beside `verb`, typed by scenario-types.ts), whether
 *  it may be a setup gesture too, and whether it runs only on Chrome; listed in the order
 *  messages name them. A step verb without its entry does not compile. */
const STEPS: {readonly [V in Step['verb']]: {setup?: true; chromeOnly?: true; args(c: ReadContext): Shape<ArgsOf<V>>}} = {
  tap: {setup: true, args: (c) => gesture(c, 'tap', {})},
  fill: {setup: true, args: (c) => gesture(c, 'fill', {text: typed(c)})},
  type: {setup: true, args: (c) => gesture(c, 'type', {text: typed(c)})},
  press_key: {
    setup: true,
    args: (c) =>
      part((raw, where, report) => {
        if (isMap(raw)) unknownKeys(raw, ['key'], where, report)
        const key = textValue(isMap(raw) ? raw.key : raw, isMap(raw) ? `${where}.key` : where, c, report)
        return key && {key: key.text}
      }),
  },
  scroll: {args: (c) => gesture(c, 'scroll', {dx: number(c), dy: number(c)})},
  wheel: {
    setup: true,
    chromeOnly: true,
    args: (c) => gesture(c, 'wheel', {dx: number(c), dy: number(c), ticks: integer(c, {min: 1, max: 200}, 1)}),
  },
  drag: {setup: true, args: (c) => gesture(c, 'drag', {dx: number(c), dy: number(c)})},
  navigate: {args: (c) => converted(text(c), (route) => ({route: route.text}))},
  resize: {chromeOnly: true, args: (c) => map({width: integer(c, {min: 1}), height: integer(c, {min: 1})}, 'needs {width, height}')},
  wait: {setup: true, args: (c) => converted(integer(c, {min: 1}), (ms) => ({ms}))},
}
const isStepVerb = (verb: string): verb is Step['verb'] => Object.hasOwn(STEPS, verb)
export const STEP_VERBS = Object.keys(STEPS).filter(isStepVerb)
export const GESTURE_VERBS = STEP_VERBS.filter((verb) => STEPS[verb].setup)

/** One step (or setup gesture), `{<verb>: <args>, only?: [...]}`, at `where` (`steps[0] (tap)`). */
export function step(verb: string, entry: JsonObject, where: string, c: ReadContext, report: Report): Step | undefined {
  if (!isStepVerb(verb)) return undefined
  const only = entry.only === undefined ? undefined : take(platformList(c.platforms), entry.only, `${where}.only`, report)
  if (STEPS[verb].chromeOnly && (only ?? c.platforms).some((platform) => platform !== 'chrome'))
    problem(report, where, entry, `${verb} runs only on Chrome. Add \`only: [chrome]\``)
  const shape: Shape<ArgsOf<Step['verb']>> = STEPS[verb].args(c)
  const args = take(shape, entry[verb], where, report)
  if (!args) return undefined
  // The verb's own args shape made its fields.
  return {verb, ...args, ...(only ? {only} : {})} as Step
}

/** The one verb key of an entry map (besides `only` and the include's own keys), or a problem. */
export function verbOf(entry: JsonObject, where: string, report: Report, extra: readonly string[] = []): string | undefined {
  const keys = Object.keys(entry).filter((key) => key !== 'only' && !extra.includes(key))
  if (keys.length === 1) return keys[0]
  return problem(report, where, entry, `an entry has exactly one verb key (got ${keys.length === 0 ? 'none' : keys.join(', ')})`)
}
