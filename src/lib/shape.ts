import {jsonKind} from './json-kind.js'

/** A JSON object: the fields a shape names, typed, and any others kept as they came. */
export type JsonObject = {[key: string]: unknown}

const PREVIEW_CHARS = 80

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A JSON value as a reader needs it named: its kind, and a short preview of it. */
export function describeJson(value: unknown): string {
  const kind = jsonKind(value)
  if (value === undefined || value === null) return kind
  const text = JSON.stringify(value)
  return `${kind} (${text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text})`
}

/**
 * What a JSON value tapir reads is expected to be: checked once, where the value enters (an
 * answer from the app or Chrome, a file, a message from a process), so the code that reads it
 * has its type instead of a guess.
 * Object shapes check the fields they name and keep every other field as it came.
 */
export interface Shape<T> {
  /** What belongs there, in an error's words: "a string", "a list". */
  readonly expected: string
  /** Whether an object's field of this shape may be absent. */
  readonly optional: boolean
  /** Reports each place `value` differs from the shape, in order (`report` may throw to stop at the first). */
  check(value: unknown, path: string, report: (mismatch: ShapeMismatch) => void): void
  /** The value, typed; throws a ShapeMismatch naming the first place it differs. */
  read(value: unknown, path: string): T
  /** Reading makes a new value (a `converted` shape is within): an object or list of such shapes
   *  is read anew, the rest of it kept as it came. */
  readonly converts?: true
}

export type Infer<S> = S extends Shape<infer T> ? T : never

type Fields = {readonly [name: string]: Shape<unknown>}
type Optional = {readonly optional: true}
type Simplify<T> = {[K in keyof T]: T[K]} & {}

/** The object type of `fields` and no other: an optional shape gives an optional field. */
export type FieldsOf<F extends Fields> = Simplify<
  {-readonly [K in keyof F as F[K] extends Optional ? never : K]: Infer<F[K]>} & {
    -readonly [K in keyof F as F[K] extends Optional ? K : never]?: Infer<F[K]>
  }
>

/** The object type of `fields`, and any other fields as they came. */
export type ObjectOf<F extends Fields> = FieldsOf<F> & JsonObject

export interface ObjectShape<F extends Fields> extends Shape<ObjectOf<F>> {
  /** The named fields, so a shape can be built on another: `object({...notes.fields, ...})`. */
  readonly fields: F
}

/** Where and how a value differs from its shape. */
export class ShapeMismatch extends Error {
  constructor(
    readonly path: string,
    readonly found: unknown,
    readonly expected: string,
    /** What is wrong when it is not the kind of value: "min is above max". */
    readonly problem?: string,
  ) {
    super(problem === undefined ? `its ${path} is ${describeJson(found)}, not ${expected}` : `its ${path}: ${problem}`)
  }
}

const stop = (mismatch: ShapeMismatch): never => {
  throw mismatch
}

/** A shape made of its check: reading is checking up to the first mismatch. The value is given
 *  back as it came (not a copy), so what prints as JSON is exactly what was sent, unless `convert`
 *  makes the value read of a checked one. */
export function custom<T>(
  expected: string,
  check: Shape<T>['check'],
  isOptional = false,
  convert?: (value: unknown, path: string) => unknown,
): Shape<T> {
  return {
    expected,
    optional: isOptional,
    check,
    read(value, path) {
      check(value, path, stop)
      return (convert ? convert(value, path) : value) as T
    },
    ...(convert ? {converts: true} : {}),
  }
}

/** How a wrapper reads: through `shape`'s read when that makes a new value. */
const through = (shape: Shape<unknown>) => (shape.converts ? (value: unknown, path: string) => shape.read(value, path) : undefined)

/** `shape`, read as `convert` makes of it: for a file whose written form is not the form the code
 *  uses (a scenario's `${env.NAME}` filled in, `{wait: 200}` read as `{verb: 'wait', ms: 200}`). */
export function converted<T, U>(shape: Shape<T>, convert: (value: T, path: string) => U): Shape<U> {
  return custom(shape.expected, shape.check, shape.optional, (value, path) => convert(shape.read(value, path), path))
}

/** Values that pass `test`, named `expected` in a mismatch ("a number of at least 0"). */
export function scalar<T>(expected: string, test: (value: unknown) => value is T): Shape<T> {
  return custom(expected, (value, path, report) => {
    if (!test(value)) report(new ShapeMismatch(path, value, expected))
  })
}

export const string = scalar('a string', (value): value is string => typeof value === 'string')
export const number = scalar('a number', (value): value is number => typeof value === 'number' && Number.isFinite(value))
export const integer = scalar('an integer', (value): value is number => Number.isInteger(value))
export const boolean = scalar('a boolean', (value): value is boolean => typeof value === 'boolean')
/** Any JSON value: a field tapir passes on without reading. */
export const anything = scalar('anything', (value): value is unknown => value !== undefined)

/** One of the given values exactly. */
export function literal<const V extends readonly (string | number | boolean)[]>(...values: V): Shape<V[number]> {
  return scalar(`one of ${values.map((value) => JSON.stringify(value)).join(', ')}`, (value): value is V[number] =>
    values.some((allowed) => allowed === value),
  )
}

/** `shape` under other words: a mismatch of the value itself (not of something inside it, which
 *  names itself) says `expected`. */
export function described<T>(expected: string, shape: Shape<T>): Shape<T> {
  return custom(
    expected,
    (value, path, report) =>
      shape.check(value, path, (mismatch) =>
        report(mismatch.path === path && mismatch.problem === undefined ? new ShapeMismatch(path, value, expected) : mismatch),
      ),
    shape.optional,
    through(shape),
  )
}

export function nullable<T>(shape: Shape<T>): Shape<T | null> {
  const inner = described(`${shape.expected} or null`, shape)
  return custom(
    inner.expected,
    (value, path, report) => value === null || inner.check(value, path, report),
    shape.optional,
    shape.converts && ((value, path) => (value === null ? null : inner.read(value, path))),
  )
}

/** A field that may be absent; when present it has `shape`. */
export function optional<T>(shape: Shape<T>): Shape<T | undefined> & Optional {
  return {
    ...custom<T | undefined>(
      shape.expected,
      (value, path, report) => value === undefined || shape.check(value, path, report),
      false,
      shape.converts && ((value, path) => (value === undefined ? undefined : shape.read(value, path))),
    ),
    optional: true,
  }
}

/** `shape`, and then `problemOf`: what is wrong with it beyond its kind ("min is above max"). It
 *  also sees a value that differs from `shape` elsewhere, so every problem is told at once. */
export function refined<T>(shape: Shape<T>, problemOf: (value: unknown) => string | undefined): Shape<T> {
  return custom(
    shape.expected,
    (value, path, report) => {
      shape.check(value, path, report)
      const problem = problemOf(value)
      if (problem !== undefined) report(new ShapeMismatch(path, value, shape.expected, problem))
    },
    shape.optional,
    through(shape),
  )
}

export function list<T>(item: Shape<T>): Shape<T[]> {
  return custom(
    'a list',
    (value, path, report) => {
      if (!Array.isArray(value)) return report(new ShapeMismatch(path, value, 'a list'))
      value.forEach((entry: unknown, index) => item.check(entry, `${path}[${index}]`, report))
    },
    false,
    item.converts &&
      ((value, path) => (Array.isArray(value) ? value.map((entry: unknown, index) => item.read(entry, `${path}[${index}]`)) : [])),
  )
}

/** An object whose named fields have their shapes; other fields are kept, unchecked. */
export function object<const F extends Fields>(fields: F): ObjectShape<F> {
  const at = (path: string, name: string) => (path === '' ? name : `${path}.${name}`)
  const convert = (value: unknown, path: string) => {
    const read: JsonObject = isJsonObject(value) ? {...value} : {}
    for (const [name, shape] of Object.entries(fields)) {
      const field = shape.read(read[name], at(path, name))
      if (field !== undefined) read[name] = field
    }
    return read
  }
  return {
    ...custom<ObjectOf<F>>(
      'an object',
      (value, path, report) => {
        if (!isJsonObject(value)) return report(new ShapeMismatch(path, value, 'an object'))
        for (const [name, shape] of Object.entries(fields)) shape.check(value[name], at(path, name), report)
      },
      false,
      Object.values(fields).some((shape) => shape.converts) ? convert : undefined,
    ),
    fields,
  }
}

/** An object of any keys whose values all have `shape` (a map keyed by name); `entryPath` names
 *  an entry's place (`path.key` unless told). */
export function record<T>(shape: Shape<T>, entryPath = (path: string, key: string): string => `${path}.${key}`): Shape<Record<string, T>> {
  return custom(
    'an object',
    (value, path, report) => {
      if (!isJsonObject(value)) return report(new ShapeMismatch(path, value, 'an object'))
      for (const [name, entry] of Object.entries(value)) shape.check(entry, entryPath(path, name), report)
    },
    false,
    shape.converts &&
      ((value, path) =>
        Object.fromEntries(
          Object.entries(isJsonObject(value) ? value : {}).map(([name, entry]) => [name, shape.read(entry, entryPath(path, name))]),
        )),
  )
}

/** The value typed by `shape`, or the first mismatch in words ("its x is a number (5), not a string"). */
export function readAs<T>(shape: Shape<T>, value: unknown, path = 'result'): {value: T} | {problem: string} {
  try {
    return {value: shape.read(value, path)}
  } catch (error) {
    if (error instanceof ShapeMismatch) return {problem: error.message}
    throw error
  }
}

/** The value typed by `shape`, or every place it differs, in order. */
export function readAll<T>(shape: Shape<T>, value: unknown, path = ''): {value: T} | {mismatches: ShapeMismatch[]} {
  const mismatches: ShapeMismatch[] = []
  shape.check(value, path, (mismatch) => mismatches.push(mismatch))
  // With no mismatch, reading cannot stop at one.
  return mismatches.length > 0 ? {mismatches} : {value: shape.read(value, path)}
}

/** Whether `value` has `shape`: for the entries of a list a reader keeps only when they fit. */
export function fits<T>(shape: Shape<T>, value: unknown): value is T {
  let fitting = true
  shape.check(value, '', () => (fitting = false))
  return fitting
}
