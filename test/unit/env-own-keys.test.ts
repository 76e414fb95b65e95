import {describe, expect, it} from 'vitest'
import {interpolate} from '../../src/lib/perf/interpolate.js'
import {interpolateWords} from '../../src/lib/run/step-env.js'

// process.env inherits from Object.prototype, as a parsed object does: what it inherits is no variable.
const inherited = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']

describe('${env.NAME} reads only the environment’s own keys', () => {
  it.each(inherited)('a step word ${env.%s} is not set (tapir:run, tapir test, MCP)', (name) => {
    const result = interpolateWords([`--text=\${env.${name}}`], process.env)
    expect(result.problems).toEqual([`environment variable ${name} is not set (\${env.${name}})`])
    expect(result.secrets).toEqual([])
    expect(result.words[0]).not.toMatch(/native code|object/)
  })

  it.each(inherited)('a perf scenario value ${env.%s} is not set', (name) => {
    const problems: string[] = []
    const value = interpolate(`\${env.${name}}`, {params: new Map(), env: JSON.parse('{"HOME":"/h"}') as Record<string, string>}, (p) =>
      problems.push(p),
    )
    expect(problems).toEqual([`environment variable ${name} is not set (\${env.${name}})`])
    expect(value.unresolved).toBe(true)
  })

  it('an own key still reads', () => {
    const result = interpolateWords(['--text=${env.TAPIR_OWN}'], {TAPIR_OWN: 'x1'})
    expect(result).toMatchObject({words: ['--text=x1'], secrets: ['x1'], problems: []})
  })
})
