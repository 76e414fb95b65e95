import {ParamError} from '../errors.js'
import {boolean, integer, optional, string} from '../shape.js'
import {MAX_TIMEOUT_MS} from '../vm/deadline.js'
import {networkIdleSlices, waitForSlices} from '../vm/sliced-waits.js'
import {answer} from '../vm/tapir-answers.js'
import {sent} from './dusk/facts.js'
import {extensionVerb} from './extension-verb.js'
import {BRIEF, waitTimeout} from './params.js'
import type {Param, Verb} from './types.js'

const WAIT_UNPROVEN =
  'Condition did not match within the timeout. Nothing on screen satisfied it, so treat any assertion that depended on this wait as unproven.'
const NETWORK_UNPROVEN =
  'Network did not go idle within the timeout. Requests were still in flight, so treat anything that depended on this wait as unproven.'

const timeoutMs = {...waitTimeout(), brief: BRIEF.timeoutMs}
const idleMs = {
  name: 'idleMs',
  brief: 'How long nothing may be in flight.',
  type: 'integer',
  default: 500,
  minimum: 0,
  maximum: MAX_TIMEOUT_MS,
  description: 'How long the in-flight count must stay at zero.',
} as const satisfies Param

const windowTooShort = (timeoutMs: number, idleMs: number) =>
  `Network idle not proven: the timeout (--timeoutMs=${timeoutMs}) is shorter than the idle window (--idleMs=${idleMs}), so the network could never be seen idle for that long. Raise --timeoutMs above --idleMs, or lower --idleMs.`

export const wait = extensionVerb({
  name: 'wait',
  tool: 'tapir_wait_for',
  title: 'Wait for text',
  ext: 'wait_for',
  summary: 'Wait until a Text appears or disappears; matched: false when the timeout passes first.',
  cliExit: 'exits 1 when the timeout passes first',
  example: '--text=Monitors --timeoutMs=3000',
  exampleBefore: ['tapir tapir:navigate --route=/monitors'],
  kind: 'read',
  dusk: {
    on: 'driven',
    method: 'wait_for',
    note: '0.0.1 reads text before textGone before expression, so tapir takes exactly one; its timeout is matched: false, which exits 1',
    params: {text: sent, textGone: sent, expression: {rule: 'sent', as: 'text'}, timeoutMs: sent},
    tool: {
      tool: 'dusk_wait_for',
      summary: 'Wait until a text shows, a text goes, or an expression holds; an error when time runs out.',
      params: ['text', 'textGone', 'expression', 'timeoutMs'],
      renamed: {elapsedMs: 'waitedMs'},
      validate(input) {
        const given = ['text', 'textGone', 'expression'].filter((name) => typeof input[name] === 'string' && input[name] !== '')
        if (given.length > 1) throw new ParamError((name) => `Pass only one of ${given.map(name).join(', ')}.`)
      },
      failure: (result, input) =>
        result.matched === false
          ? `Nothing matched within ${String(input.timeoutMs)} ms${typeof result.reason === 'string' ? ` (${result.reason})` : ''}.`
          : undefined,
    },
  },
  step: 'any',
  record: {as: 'step'},
  params: [
    {name: 'text', brief: 'Exact Text data to wait for.', type: 'string', description: 'Wait for a Text with exactly this data.'},
    {
      name: 'textGone',
      brief: 'Exact Text data to wait to vanish.',
      type: 'string',
      description: 'Wait until no Text with exactly this data is left.',
    },
    {
      name: 'expression',
      brief: 'Matched as text, like text.',
      type: 'string',
      description: 'Matched as text, like --text (it is not evaluated; see tapir:evaluate).',
    },
    timeoutMs,
  ],
  waitsMs: (input) => Number(input.timeoutMs ?? timeoutMs.default),
  slices: waitForSlices(timeoutMs.default),
  validate(input) {
    if (![input.text, input.textGone, input.expression].some((value) => typeof value === 'string' && value !== '')) {
      throw new ParamError((name) => `Provide at least one condition: ${name('text')}, ${name('textGone')}, or ${name('expression')}.`)
    }
  },
  result: answer({matched: boolean, elapsedMs: optional(integer), waitedMs: optional(integer), reason: optional(string)}),
  failed: (result) => !result.matched,
  report: (result) =>
    result.matched
      ? {stdout: `✓ Condition matched after ${result.elapsedMs ?? result.waitedMs ?? 0} ms`}
      : {stderr: [`✗ ${WAIT_UNPROVEN}`]},
})

export const waitForNetworkIdle = extensionVerb({
  name: 'wait_for_network_idle',
  tool: 'tapir_wait_for_network_idle',
  title: 'Wait for network idle',
  summary: 'Wait until no HTTP request has been in flight for idleMs.',
  cliExit: 'exits 1 when it never settles',
  example: '--timeoutMs=8000 --idleMs=750',
  kind: 'read',
  dusk: {
    on: 'driven',
    method: 'wait_for_network_idle',
    note: "0.0.1's timeout envelope exits 1, as tapir's does",
    params: {timeoutMs: sent, idleMs: sent, pollIntervalMs: sent},
    tool: {
      tool: 'dusk_wait_for_network_idle',
      summary: 'Wait until the app has had no HTTP request in flight for idleMs; an error when time runs out.',
      params: ['timeoutMs', 'idleMs', 'pollIntervalMs'],
      failure: (result, input) => (result.matched === false ? `The network was not idle within ${String(input.timeoutMs)} ms.` : undefined),
    },
  },
  step: 'any',
  record: {as: 'step'},
  params: [
    timeoutMs,
    idleMs,
    {
      name: 'pollIntervalMs',
      type: 'integer',
      default: 200,
      minimum: 100,
      maximum: MAX_TIMEOUT_MS,
      description: 'How often the app checks, in milliseconds (at least 100).',
    },
  ],
  waitsMs: (input) => Number(input.timeoutMs ?? timeoutMs.default),
  slices: networkIdleSlices({timeoutMs: timeoutMs.default, idleMs: idleMs.default}),
  result: answer({matched: boolean, idleAchievedMs: optional(integer)}),
  failed: (result) => !result.matched,
  report: (result) =>
    result.matched ? {stdout: `✓ Network idle (after ${result.idleAchievedMs ?? 0} ms)`} : {stderr: [`✗ ${NETWORK_UNPROVEN}`]},
  // The app reports the timeout as an error envelope; on the CLI it is a soft failure.
  softFailure(error, input) {
    if (error.envelopeType !== 'timeout') return undefined
    const timeout = Number(input.timeoutMs ?? timeoutMs.default)
    const idle = Number(input.idleMs ?? idleMs.default)
    // The app needs idleMs of quiet within timeoutMs: a shorter timeout can never be met.
    if (timeout < idle) return {stderr: [`✗ ${windowTooShort(timeout, idle)}`]}
    return {stderr: [`✗ ${NETWORK_UNPROVEN} (${error.message})`]}
  },
})

export const waitVerbs: Verb[] = [wait, waitForNetworkIdle]
