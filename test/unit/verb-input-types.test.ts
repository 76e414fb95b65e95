import {describe, expect, it} from 'vitest'
import {extensionVerb} from '../../src/lib/verbs/extension-verb.js'
import {ref} from '../../src/lib/verbs/params.js'
import {anyAnswer} from '../../src/lib/vm/tapir-answers.js'

// The checks that matter here are made by `npm run typecheck`: each @ts-expect-error fails the
// typecheck the day the error it expects stops being one.
describe('verb input is typed by the verb’s own parameters', () => {
  it('gives each parameter its declared type, and refuses a misspelt one at compile time', () => {
    const verb = extensionVerb({
      name: 'probe',
      tool: null,
      title: 'Probe',
      kind: 'read',
      summary: 'A verb that exists only to be type-checked.',
      dusk: {on: 'refused'},
      step: 'any',
      record: {as: 'nothing'},
      params: [ref(), {name: 'limit', type: 'integer', description: 'How many.'}],
      result: anyAnswer,
      report: (_result, input) => {
        const ref: string = input.ref
        const limit: number | undefined = input.limit
        // @ts-expect-error a misspelt parameter does not compile
        const misspelt = input.reff
        // @ts-expect-error an optional parameter may be absent
        const absent: number = input.limit
        return {stdout: `${ref} ${limit} ${misspelt} ${absent}`}
      },
    })
    expect(verb.report({}, {ref: 'e1', limit: 2}).stdout).toBe('e1 2 undefined 2')
  })
})
