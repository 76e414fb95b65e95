import {TapirError, type Words} from '../errors.js'
import {ExplainedError} from './explained-error.js'

/** What each verb that takes one kind of widget is told by the app when the ref is another kind
 *  (as the sim words them for the package: src/sim/app/handlers/writable-field.ts, set-checkbox.ts), and
 *  what to do instead. */
const WRONG_KIND: Readonly<Record<string, {said: RegExp; fix: (words: Words) => string}>> = {
  fill: {
    said: /\bnot a text field\b/,
    fix: (words) =>
      ` fill types into a text field (a textbox in ${words.call('snap')}); to press this one, ${words.run.toLowerCase()} ${words.call('tap')}.`,
  },
  set_checkbox: {
    said: /\bhas no checked or toggled state\b/,
    fix: (words) =>
      ` It is not a checkbox, switch or radio: pick one of those from ${words.call('snap')}, or ${words.run.toLowerCase()} ${words.call('tap')} to press this widget.`,
  },
}

/** The app's error for a ref of the wrong kind, without the extension's internal name, and with
 *  the next step; any other error as it came. */
export function explainWrongKind(error: unknown, verb: string): unknown {
  const known = WRONG_KIND[verb]
  if (!known || !(error instanceof TapirError) || error.kind !== 'app' || !known.said.test(error.message)) return error
  return new WrongKind(error.message.replace(/^ext\.(tapir|dusk)\.\w+: /, ''), error.details ?? {}, known.fix)
}

class WrongKind extends ExplainedError {
  constructor(
    message: string,
    details: Record<string, unknown>,
    private readonly next: (words: Words) => string,
  ) {
    super(message, details)
  }

  fix(words: Words): string {
    return this.next(words)
  }
}
