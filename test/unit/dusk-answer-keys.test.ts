import {describe, expect, it} from 'vitest'
import {duskAnswer} from '../../src/lib/mcp/call-dusk-tool.js'
import {DUSK_TOOLS} from '../../src/lib/mcp/dusk-catalogue.js'

describe("a Dusk app's answer keeps its keys as sent", () => {
  it('__proto__ and constructor stay keys in every dusk_* answer, and no value becomes a key', () => {
    for (const tool of DUSK_TOOLS.filter((each) => !each.reshape)) {
      const result = JSON.parse('{"__proto__": {"polluted": true}, "constructor": "c", "toString": 1}') as Record<string, unknown>
      const answer = JSON.parse(JSON.stringify(duskAnswer(tool, result, {}))) as Record<string, unknown>
      expect(Object.keys(answer).sort(), tool.tool).toEqual(['__proto__', 'constructor', 'toString'])
      expect(answer.constructor, tool.tool).toBe('c')
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
