import {describe, expect, it} from 'vitest'
import {UsageError} from '../../src/lib/errors.js'
import {verbNamed} from '../../src/lib/verbs/index.js'
import {inputFromArguments, toExtensionParams} from '../../src/lib/verbs/input.js'

const tap = verbNamed('tap')!
const snap = verbNamed('snap')!

describe('toExtensionParams', () => {
  it('sends every value as the string a Dart extension receives', () => {
    const params = toExtensionParams(tap.params, {ref: 'e5', includeSnapshot: false, checkStable: true, untilTimeoutMs: 3000})
    expect(params).toEqual({ref: 'e5', includeSnapshot: 'false', checkStable: 'true', untilTimeoutMs: '3000'})
    for (const value of Object.values(params)) expect(typeof value).toBe('string')
  })
  it('drops empty optional strings so the app sees them absent', () => {
    expect(toExtensionParams(snap.params, {grep: '', depth: 0})).toEqual({depth: '0'})
  })
  it('keeps an empty required string (fill --text "" clears the field)', () => {
    expect(toExtensionParams([{name: 'text', type: 'string', required: true, allowEmpty: true, description: ''}], {text: ''})).toEqual({
      text: '',
    })
  })
  it('joins a list with commas, as the CLI takes it', () => {
    expect(toExtensionParams([{name: 'modifiers', type: 'string[]', description: ''}], {modifiers: ['control', 'shift']})).toEqual({
      modifiers: 'control,shift',
    })
  })
})

describe('inputFromArguments (MCP arguments)', () => {
  it('fills the spec defaults, leaving app-side defaults unsent', () => {
    const input = inputFromArguments(tap, {ref: 'e5'})
    expect(input).toMatchObject({ref: 'e5', includeSnapshot: true, checkStable: true, retarget: true, untilTimeoutMs: 3000})
    expect(input.snapshot).toBeUndefined()
  })
  it('refuses an unknown property', () => {
    expect(() => inputFromArguments(snap, {geometry: 'true'})).toThrow('Additional property "geometry" is not allowed')
  })
  it('refuses a wrong type', () => {
    expect(() => inputFromArguments(snap, {depth: '8'})).toThrow('Parameter "depth" must be an integer')
    expect(() => inputFromArguments(snap, {depth: 1.5})).toThrow(UsageError)
  })
  it('refuses a missing required parameter', () => {
    expect(() => inputFromArguments(tap, {})).toThrow('Missing required parameter "ref"')
  })
  it('refuses a value outside the choices', () => {
    expect(() => inputFromArguments(tap, {ref: 'e1', snapshot: 'partial'})).toThrow('must be one of full, diff, none')
  })
})
