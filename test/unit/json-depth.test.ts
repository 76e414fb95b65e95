import {describe, expect, it} from 'vitest'
import {nestsDeeperThan} from '../../src/lib/json-depth.js'

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(nestsDeeperThan('{"a":[{"b":1}]}', 3)).toBe(false)
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 3)).toBe(true)
    expect(nestsDeeperThan(JSON.stringify({text: '[[[[{{{{', quote: 'a\\"[[[['}), 1)).toBe(false)
    expect(nestsDeeperThan('[[],[],[[]]]', 3)).toBe(false)
  })

  it('answers for a text nested far past what JSON.stringify survives, without recursion', () => {
    const depth = 1_000_000
    expect(nestsDeeperThan(`${'['.repeat(depth)}${']'.repeat(depth)}`, 1000)).toBe(true)
  })
})
