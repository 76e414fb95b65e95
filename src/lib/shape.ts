/** A JSON object: the fields a shape names, typed, and any others kept as they came. */
export type JsonObject = {[key: string]: unknown}

const PREVIEW_CHARS = 80

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A JSON value as a reader needs it named: its kind, and a short preview of it. */
export function describeJson(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  const kind = Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`
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
  /** The value, typed; throws a ShapeMismatch naming the first place it differs. */
  read(value: unknown, path: string): T
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
  ) {
    super(`its ${path} is ${describeJson(found)}, not ${expected}`)
  }
}

function scalar<T>(expected: string, test: (value: unknown) => value is T): Shape<T> {
  return {
    expected,
    optional: false,
    read(value, path) {
      if (!test(value)) throw new ShapeMismatch(path, value, expected)
      return value
    },
  }
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

export function nullable<T>(shape: Shape<T>): Shape<T | null> {
  const expected = `${shape.expected} or null`
  return {
    expected,
    optional: shape.optional,
    read(value, path) {
      if (value === null) return null
      try {
        return shape.read(value, path)
      } catch (error) {
        // Not the value itself but something inside it: that place names itself.
        if (error instanceof ShapeMismatch && error.path === path) throw new ShapeMismatch(path, value, expected)
        throw error
      }
    },
  }
}

/** A field that may be absent; when present it has `shape`. */
export function optional<T>(shape: Shape<T>): Shape<T | undefined> & Optional {
  return {
    expected: shape.expected,
    optional: true,
    read: (value, path) => (value === undefined ? undefined : shape.read(value, path)),
  }
}

export function list<T>(item: Shape<T>): Shape<T[]> {
  return {
    expected: 'a list',
    optional: false,
    read(value, path) {
      if (!Array.isArray(value)) throw new ShapeMismatch(path, value, 'a list')
      return value.map((entry: unknown, index) => item.read(entry, `${path}[${index}]`))
    },
  }
}

/** An object whose named fields have their shapes; other fields are kept, unchecked. The value
 *  itself is returned (not a copy), so what prints as JSON is exactly what the app sent. */
export function object<const F extends Fields>(fields: F): ObjectShape<F> {
  return {
    expected: 'an object',
    optional: false,
    fields,
    read(value, path) {
      if (!isJsonObject(value)) throw new ShapeMismatch(path, value, 'an object')
      for (const [name, shape] of Object.entries(fields)) shape.read(value[name], path === '' ? name : `${path}.${name}`)
      return value as ObjectOf<F>
    },
  }
}

/** An object of any keys whose values all have `shape` (a map keyed by name). */
export function record<T>(shape: Shape<T>): Shape<Record<string, T>> {
  return {
    expected: 'an object',
    optional: false,
    read(value, path) {
      if (!isJsonObject(value)) throw new ShapeMismatch(path, value, 'an object')
      for (const [name, entry] of Object.entries(value)) shape.read(entry, `${path}.${name}`)
      return value as Record<string, T>
    },
  }
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
