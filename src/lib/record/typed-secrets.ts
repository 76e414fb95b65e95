import {isJsonObject} from '../shape.js'
import type {CallRecorder, Input, Result, Verb, VerbContext} from '../verbs/types.js'
import {SECRET_LABEL} from './recorder.js'
import {candidatesOf, isWholeTree, screenNodes, snapshotOf} from './screen.js'

/** What the calls showed of a widget a ref names: its words (label, or a find's predicates) and
 *  whether its value read as obscured. */
interface Seen {
  words: readonly string[]
  obscured?: boolean
}

/**
 * Sees each call that types text (fill, type_text) and tells `secret` the text when the field
 * takes a secret, from what the calls showed, never asking the app (as a recording decides it):
 * the field read as obscured, or its label (or the find that named it) says password, passcode,
 * PIN, secret or token; after the call, also the field the app says it wrote and the call's own
 * snapshot. Typing with no ref, or into a ref no call showed, counts as secret. The calls
 * themselves go on to `inner` unchanged.
 */
export function typedSecrets(secret: (text: string) => void, inner?: VerbContext['recorder']): (verb: Verb) => CallRecorder | undefined {
  let screen = new Map<string, Seen>()
  const handles = new Map<string, Seen>()
  const seen = (ref: string | undefined) => (ref === undefined ? undefined : (screen.get(ref) ?? handles.get(ref)))
  return (verb) => {
    const next = inner?.(verb)
    const rule = verb.record
    const textParam = rule.as === 'step' ? rule.secret : undefined
    return {
      async begin(verb, input, call) {
        const after = await next?.begin(verb, input, call)
        const text = textParam === undefined ? undefined : input[textParam]
        const typed = typeof text === 'string' && text !== '' ? text : undefined
        const ref = typeof input.ref === 'string' ? input.ref : undefined
        if (typed !== undefined && takesSecret(seen(ref))) secret(typed)
        return async (result) => {
          const snapshot = snapshotOf(result)
          if (snapshot !== undefined && (verb.name !== 'snap' || isWholeTree(input))) screen = refsOn(snapshot)
          if (verb.name === 'observe') for (const [handle, {label}] of candidatesOf(result, 0)) handles.set(handle, {words: [label]})
          if (verb.name === 'find' && isJsonObject(result) && typeof result.ref === 'string')
            handles.set(result.ref, {words: predicateWords(input)})
          if (typed !== undefined && shownSecret(result, seen(ref))) secret(typed)
          await after?.(result)
        }
      },
    }
  }
}

function takesSecret(widget: Seen | undefined): boolean {
  return widget === undefined || widget.obscured === true || widget.words.some((word) => SECRET_LABEL.test(word))
}

/** After a typing call: its snapshot shows the field obscured, or the app says it wrote a field
 *  whose label says secret. */
function shownSecret(result: Result, widget: Seen | undefined): boolean {
  const effect = isJsonObject(result) && isJsonObject(result.effect) ? result.effect : undefined
  const target = effect && isJsonObject(effect.target) ? effect.target.label : undefined
  return widget?.obscured === true || (typeof target === 'string' && SECRET_LABEL.test(target))
}

function refsOn(snapshot: string): Map<string, Seen> {
  const refs = new Map<string, Seen>()
  for (const node of screenNodes(snapshot))
    if (node.ref) refs.set(node.ref, {words: [node.label], ...(node.obscured ? {obscured: true} : {})})
  return refs
}

/** A find's predicates (key, label, text, ...) as words; `as` and the numbers are no predicate. */
function predicateWords(input: Input): string[] {
  return Object.entries(input)
    .filter(([name, value]) => name !== 'as' && typeof value === 'string')
    .map(([, value]) => String(value))
}
