import {ParamError} from '../errors.js'
import {boolean, integer, optional, string} from '../shape.js'
import {MAX_TIMEOUT_MS} from '../vm/deadline.js'
import {answer} from '../vm/tapir-answers.js'
import {extensionVerb} from './extension-verb.js'
import {BRIEF, waitTimeout} from './params.js'
import type {Verb} from './types.js'

const WAIT_UNPROVEN =
  'Condition did not match within the timeout. Nothing on screen satisfied it, so treat any assertion that depended on this wait as unproven.'
const NETWORK_UNPROVEN =
  'Network did not go idle within the timeout. Requests were still in flight, so treat anything that depended on this wait as unproven.'

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
    {...waitTimeout(), brief: BRIEF.timeoutMs},
  ],
  waitsMs: (input) => Number(input.timeoutMs ?? 5000),
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
  summary: 'Wait until the app has had no HTTP request in flight for idleMs; use it after an action that loads data.',
  cliExit: 'exits 1 when it never settles',
  example: '--timeoutMs=8000 --idleMs=750',
  kind: 'read',
  params: [
    {...waitTimeout(), brief: BRIEF.timeoutMs},
    {
      name: 'idleMs',
      brief: 'How long nothing may be in flight.',
      type: 'integer',
      default: 500,
      minimum: 0,
      maximum: MAX_TIMEOUT_MS,
      description: 'How long the in-flight count must stay at zero.',
    },
    {
      name: 'pollIntervalMs',
      type: 'integer',
      default: 200,
      minimum: 100,
      maximum: MAX_TIMEOUT_MS,
      description: 'How often the app checks, in milliseconds (at least 100).',
    },
  ],
  waitsMs: (input) => Number(input.timeoutMs ?? 5000),
  result: answer({matched: boolean, idleAchievedMs: optional(integer)}),
  failed: (result) => !result.matched,
  report: (result) =>
    result.matched ? {stdout: `✓ Network idle (after ${result.idleAchievedMs ?? 0} ms)`} : {stderr: [`✗ ${NETWORK_UNPROVEN}`]},
  // The app reports the timeout as an error envelope; on the CLI it is a soft failure.
  softFailure(error, input) {
    if (error.envelopeType !== 'timeout') return undefined
    const timeoutMs = Number(input.timeoutMs ?? 5000)
    const idleMs = Number(input.idleMs ?? 500)
    // The app needs idleMs of quiet within timeoutMs: a shorter timeout can never be met.
    if (timeoutMs < idleMs) return {stderr: [`✗ ${windowTooShort(timeoutMs, idleMs)}`]}
    return {stderr: [`✗ ${NETWORK_UNPROVEN} (${error.message})`]}
  },
})

export const waitVerbs: Verb[] = [wait, waitForNetworkIdle]
