import {describe, expect, it} from 'vitest'
import {TapirError} from '../../src/lib/errors.js'
import {
  anything,
  boolean,
  converted,
  described,
  integer,
  list,
  literal,
  nullable,
  number,
  object,
  optional,
  readAll,
  readAs,
  record,
  refined,
  string,
} from '../../src/lib/shape.js'
import {checkAnswer} from '../../src/lib/vm/malformed.js'
import {answer} from '../../src/lib/vm/tapir-answers.js'

const problem = (read: ReturnType<typeof readAs>) => ('problem' in read ? read.problem : undefined)

describe('shapes: what a JSON value from the app is expected to be', () => {
  it('scalars take their own kind only', () => {
    expect(problem(readAs(string, 'x'))).toBeUndefined()
    expect(problem(readAs(string, 5))).toBe('its result is a number (5), not a string')
    expect(problem(readAs(number, 1.5))).toBeUndefined()
    expect(problem(readAs(number, '1'))).toBe('its result is a string ("1"), not a number')
    expect(problem(readAs(integer, 2))).toBeUndefined()
    expect(problem(readAs(integer, 2.5))).toBe('its result is a number (2.5), not an integer')
    expect(problem(readAs(boolean, 'true'))).toBe('its result is a string ("true"), not a boolean')
    expect(problem(readAs(literal('a', 'b'), 'c'))).toBe('its result is a string ("c"), not one of "a", "b"')
    expect(problem(readAs(anything, null))).toBeUndefined()
    expect(problem(readAs(anything, undefined))).toBe('its result is nothing, not anything')
  })

  it('an object checks the fields it names, in order, and names the path of the first that differs', () => {
    const shape = object({a: string, b: optional(object({c: list(integer)}))})
    expect(problem(readAs(shape, {a: 'x'}))).toBeUndefined()
    expect(problem(readAs(shape, {a: 'x', b: {c: [1, 2, 'three']}}))).toBe('its result.b.c[2] is a string ("three"), not an integer')
    expect(problem(readAs(shape, {b: 5}))).toBe('its result.a is nothing, not a string')
    expect(problem(readAs(shape, [1]))).toBe('its result is a list ([1]), not an object')
  })

  it('keeps the fields it does not name, and gives back the very value it read', () => {
    const value = {a: 'x', extra: {deep: [1]}}
    const read = readAs(object({a: string}), value)
    expect('value' in read && read.value).toBe(value)
  })

  it('optional allows absence only; nullable allows null and says so', () => {
    const shape = object({a: optional(nullable(string))})
    expect(problem(readAs(shape, {}))).toBeUndefined()
    expect(problem(readAs(shape, {a: null}))).toBeUndefined()
    expect(problem(readAs(shape, {a: 5}))).toBe('its result.a is a number (5), not a string or null')
    expect(problem(readAs(nullable(object({b: string})), {b: 5}))).toBe('its result.b is a number (5), not a string')
  })

  it('a record checks every value whatever its key', () => {
    expect(problem(readAs(record(number), {x: 1, y: 2}))).toBeUndefined()
    expect(problem(readAs(record(number), {x: 1, y: 'two'}))).toBe('its result.y is a string ("two"), not a number')
  })

  it("an app's answer of the wrong shape is a malformed answer naming the method and the field (exit 3)", () => {
    const tap = answer({effect: optional(object({changed: optional(boolean)}))})
    const error = (() => {
      try {
        return checkAnswer('ext.tapir.tap', tap, {effect: {changed: 'x'}})
      } catch (caught) {
        return caught
      }
    })()
    expect(error).toBeInstanceOf(TapirError)
    expect(error).toMatchObject({
      kind: 'app',
      message: 'The app sent a malformed answer to ext.tapir.tap: its effect.changed is a string ("x"), not a boolean.',
    })
    expect(() => checkAnswer('ext.tapir.tap', tap, {renderErrors: {recent: [{type: 5}]}})).toThrow(
      'The app sent a malformed answer to ext.tapir.tap: its renderErrors.recent[0].type is a number (5), not a string.',
    )
  })

  it('readAll tells every mismatch in order; readAs stops at the first', () => {
    const shape = object({a: string, b: list(integer), c: optional(boolean)})
    const value = {a: 1, b: [1, 'two', 3.5], c: 'no'}
    const read = readAll(shape, value, 'result')
    expect('mismatches' in read && read.mismatches.map((mismatch) => mismatch.message)).toEqual([
      'its result.a is a number (1), not a string',
      'its result.b[1] is a string ("two"), not an integer',
      'its result.b[2] is a number (3.5), not an integer',
      'its result.c is a string ("no"), not a boolean',
    ])
    expect(problem(readAs(shape, value))).toBe('its result.a is a number (1), not a string')
    expect(readAll(shape, {a: 'x', b: []})).toEqual({value: {a: 'x', b: []}})
  })

  it('described renames what the value itself should be; refined adds a problem beyond its kind', () => {
    const above = (value: unknown) => {
      const read = readAs(object({low: number, high: number}), value)
      return 'value' in read && read.value.low > read.value.high ? 'low is above high' : undefined
    }
    const pair = refined(described('a {low, high} pair', object({low: number, high: number})), above)
    expect(problem(readAs(pair, 5))).toBe('its result is a number (5), not a {low, high} pair')
    expect(problem(readAs(pair, {low: 'x', high: 1}))).toBe('its result.low is a string ("x"), not a number')
    expect(problem(readAs(pair, {low: 2, high: 1}))).toBe('its result: low is above high')
    expect(problem(readAs(pair, {low: 1, high: 2}))).toBeUndefined()
  })
  it('converted reads a value as its function makes it, inside objects, lists and wrappers too', () => {
    const cents = converted(number, (euros) => Math.round(euros * 100))
    const price = object({net: cents, vat: optional(cents), note: nullable(cents), lines: list(cents)})
    const sent = {net: 1.5, note: null, lines: [0.25, 2], extra: 'kept'}
    expect(readAs(price, sent)).toEqual({value: {net: 150, note: null, lines: [25, 200], extra: 'kept'}})
    expect(sent.net).toBe(1.5)
    expect(readAs(price, {...sent, vat: 0.2})).toEqual({value: {...sent, net: 150, vat: 20, lines: [25, 200]}})
    expect(
      readAs(
        refined(described('a price', price), () => undefined),
        sent,
      ),
    ).toEqual(readAs(price, sent))
    expect(problem(readAs(price, {...sent, lines: [1, 'x']}))).toBe('its result.lines[1] is a string ("x"), not a number')
    const plain = {net: 1, lines: []}
    expect(readAs(object({net: number}), plain)).toEqual({value: plain})
    expect((readAs(object({net: number}), plain) as {value: unknown}).value).toBe(plain)
  })

  it('converted reads within a record too, never handing back the value unconverted as the converted type', () => {
    const cents = converted(number, (euros) => Math.round(euros * 100))
    const sent = {tea: 1.5, cake: 2}
    expect(readAs(record(cents), sent)).toEqual({value: {tea: 150, cake: 200}})
    expect(sent.tea).toBe(1.5)
    expect(readAs(object({prices: record(cents)}), {prices: sent})).toEqual({value: {prices: {tea: 150, cake: 200}}})
  })
})
