import type {WireError} from './errors.js'

/** What a handled request comes to, before it is put on the wire. */
export type Reply =
  /** `afterSend`: what the server writes right behind this reply (events it emits just after). */
  | {kind: 'result'; result: unknown; afterSend?: () => void}
  | {kind: 'error'; error: WireError}
  /** An isolate's extension handler answered; the isolate builds this reply text itself. */
  | {kind: 'extension'; response: {result: Record<string, unknown>} | {error: WireError}}
  /** The request will never be answered (its isolate went away while the call was held). */
  | {kind: 'never'}

export const result = (value: unknown): Reply => ({kind: 'result', result: value})
export const failure = (error: WireError): Reply => ({kind: 'error', error})
export const success: Reply = result({type: 'Success'})
