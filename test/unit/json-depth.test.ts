import {describe, expect, it} from 'vitest'
import {nestsDeeperThan} from '../../src/lib/json-depth.js'

describe('nestsDeeperThan', () => {
  it('counts the levels of arrays and objects, whatever the strings hold', () => {
    expect(nestsDeeperThan(JSON.parse('{"a":[{"b":1}]}'), 3)).toBe(false)
    expect(nestsDeeperThan(JSON.parse('{"a":[{"b":[1]}]}'), 3)).toBe(true)
    expect(nestsDeeperThan({text: '[[[[{{{{', quote: 'a\\"[[[['}, 1)).toBe(false)
    expect(nestsDeeperThan(JSON.parse('[[],[],[[]]]'), 3)).toBe(false)
    expect(nestsDeeperThan('[[[[', 0)).toBe(false)
    expect(nestsDeeperThan(null, 0)).toBe(false)
  })

  it('answers for a value nested far past what JSON.stringify survives, without recursion', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown
    expect(nestsDeeperThan(deep, 1000)).toBe(true)
  })
})
