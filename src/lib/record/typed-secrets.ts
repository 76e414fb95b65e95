import type {CallRecorder, Verb, VerbContext} from '../verbs/types.js'
import {TraceFreeLookup} from './locate.js'
import {SECRET_LABEL} from './recorder.js'

/**
 * Sees, before each call that types text (fill, type_text), whether the field takes a secret, as
 * a recording decides it: the app shows it obscured, or its label, form field or key says
 * password, passcode, PIN, secret or token. When the app cannot say (no trace-free lookup, or
 * the ref names no widget it can describe), the text counts as a secret, as a recording counts it.
 * Each such text goes to `secret`; the calls themselves are passed on to `inner` unchanged.
 */
export function typedSecrets(secret: (text: string) => void, inner?: VerbContext['recorder']): (verb: Verb) => CallRecorder | undefined {
  return (verb) => {
    const next = inner?.(verb)
    const rule = verb.record
    if (rule.as !== 'step' || rule.secret === undefined) return next
    const name = rule.secret
    return {
      async begin(verb, input, call) {
        const text = input[name]
        if (typeof text === 'string' && text !== '' && (await takesSecret(input.ref, call))) secret(text)
        return next?.begin(verb, input, call)
      },
    }
  }
}

async function takesSecret(ref: unknown, call: Parameters<CallRecorder['begin']>[2]): Promise<boolean> {
  if (typeof ref !== 'string' || ref === '') return true
  try {
    const lookup = await TraceFreeLookup.of(await call.app(), call.deadline)
    const widget = lookup ? await lookup.widget(ref) : undefined
    if (!widget) return true
    return widget.obscured || [widget.label, widget.field ?? '', widget.key ?? ''].some((text) => SECRET_LABEL.test(text))
  } catch {
    return true
  }
}
