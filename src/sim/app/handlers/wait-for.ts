import {ExtensionError} from '../../app-contract.js'
import {waitForText} from '../text-presence.js'
import type {ExtensionHandler} from './extension-handler.js'

const DEFAULT_TIMEOUT_MS = 5000

/** Polls the element tree for a `Text`; `expression` is matched as text. A timeout is a normal answer. */
export const waitForHandler: ExtensionHandler = {
  name: 'wait_for',
  cites: 'tapir_wait_for',
  wakesFrames: true,
  async run(app, params) {
    const text = params.optional('text')
    const textGone = params.optional('textGone')
    const expression = params.optional('expression')
    const wanted = text ?? (textGone === undefined ? expression : undefined)
    const data = wanted ?? textGone
    // This older handler answers a plain-string detail, not the {message, envelope} JSON.
    if (data === undefined) throw new ExtensionError(-32000, 'ext.tapir.wait_for: one of "text", "textGone" or "expression" is required')
    const started = app.now()
    const matched = await waitForText(app, data, params.int('timeoutMs', DEFAULT_TIMEOUT_MS), wanted !== undefined)
    return matched ? {matched: true, elapsedMs: app.now() - started} : {matched: false, reason: 'timeout'}
  },
}
