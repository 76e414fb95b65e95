import {describe, expect, it} from 'vitest'
import {defineVerb, params} from '../../src/lib/verbs/define.js'
import {sent} from '../../src/lib/verbs/dusk/facts.js'
import {extensionVerb} from '../../src/lib/verbs/extension-verb.js'
import {ref} from '../../src/lib/verbs/params.js'
import {anyAnswer} from '../../src/lib/vm/tapir-answers.js'

// The checks that matter here are made by `npm run typecheck`: each @ts-expect-error fails the
// typecheck the day the error it expects stops being one, so a verb's facts stay required and
// typed by its own params.
const probe = {
  tool: null,
  title: 'Probe',
  kind: 'action',
  summary: 'A verb that exists only to be type-checked.',
  result: anyAnswer,
} as const
const probeParams = params(ref(), {name: 'limit', type: 'integer', description: 'How many.'})

describe("a verb's facts are part of its definition", () => {
  it('does not compile without its Dusk facts', () => {
    // @ts-expect-error dusk is missing
    const verb = extensionVerb({...probe, name: 'probe', params: probeParams, step: 'any', record: {as: 'step'}})
    expect(verb.dispatch).toBe('ext.tapir.probe')
  })

  it('does not compile without its step rule', () => {
    // @ts-expect-error step is missing
    const verb = defineVerb({
      ...probe,
      name: 'probe',
      dispatch: 'local',
      params: probeParams,
      dusk: {on: 'refused'},
      record: {as: 'step'},
      execute: () => Promise.resolve({}),
      report: () => ({}),
    })
    expect(verb.name).toBe('probe')
  })

  it('does not compile without its recording rule', () => {
    // @ts-expect-error record is missing
    const verb = extensionVerb({...probe, name: 'probe', params: probeParams, dusk: {on: 'refused'}, step: 'any'})
    expect(verb.name).toBe('probe')
  })

  it('refuses a Dusk rule for a param the verb lacks, and a param left without one', () => {
    const verb = extensionVerb({
      ...probe,
      name: 'probe',
      params: probeParams,
      dusk: {
        on: 'driven',
        method: 'probe',
        params: {
          ref: sent,
          limit: sent,
          // @ts-expect-error the verb has no param `limt`
          limt: sent,
        },
        tool: {tool: 'dusk_probe', summary: 'Probe.'},
      },
      step: 'any',
      record: {as: 'step'},
    })
    expect(verb.dusk.on).toBe('driven')
    extensionVerb({
      ...probe,
      name: 'probe',
      params: probeParams,
      // @ts-expect-error limit has no rule
      dusk: {on: 'driven', method: 'probe', params: {ref: sent}, tool: {tool: 'dusk_probe', summary: 'Probe.'}},
      step: 'any',
      record: {as: 'step'},
    })
  })

  it("refuses a dusk tool param or a recording's secret the verb lacks", () => {
    extensionVerb({
      ...probe,
      name: 'probe',
      params: probeParams,
      dusk: {
        on: 'unchanged',
        note: 'a probe',
        // @ts-expect-error the verb has no param `limt` for the tool to take
        tool: {tool: 'dusk_probe', summary: 'Probe.', params: ['ref', 'limt']},
      },
      step: 'any',
      // @ts-expect-error the verb has no param `text` to hold a secret
      record: {as: 'step', secret: 'text'},
    })
  })
})
