import {actionReport} from './action-report.js'
import {extensionVerb} from './extension-verb.js'
import {pointerParams} from './params.js'
import type {Input, Result, Verb} from './types.js'

function noChange(result: Result): string {
  const effect = result.effect as {changed?: boolean} | undefined
  return effect?.changed === false ? ' (no observable change)' : ''
}

const tapReport = actionReport((result, input) => `Tapped ${input.ref}${noChange(result)}`)

export const tap = extensionVerb({
  name: 'tap',
  tool: 'tapir_tap',
  summary: "Tap a widget by ref at its live centre, after the actionability gate; reports whether the screen changed.",
  annotations: {},
  params: [
    ...pointerParams('full'),
    {name: 'retarget', type: 'boolean', default: true, description: 'On a merged boundary, tap its one labelled control instead of the centre (--no-retarget taps the centre).'},
    {name: 'until', type: 'string', description: 'After the tap, wait for a Text with exactly this data and report untilMatched.'},
    {name: 'untilTimeoutMs', type: 'integer', default: 3000, minimum: 0, description: 'How long --until waits, in milliseconds.'},
  ],
  ...tapReport,
  prefersJson: (input: Input) => tapReport.prefersJson!(input) || typeof input.until === 'string',
})

export const gestureVerbs: Verb[] = [tap]
