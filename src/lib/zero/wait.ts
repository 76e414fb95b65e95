import type {Input, Result} from '../verbs/types.js'
import type {Deadline} from '../vm/deadline.js'
import type {DumpNode} from './semantics-dump.js'
import {allNodes} from './snapshot.js'

// wait_for on an app with no package: the semantics tree polled until a text shows (or goes), with
// the package's params and answers (`{matched: true, elapsedMs}`, or `{matched: false, reason:
// 'timeout'}` when the time is up). A Text's data is its node's label, or a line of the label of
// the node it is merged into (semantics/semantics.dart `_concatAttributedString` joins merged
// labels with a newline); a field's text is its node's value. Hidden nodes (`isHidden`) are not on screen.

const POLL_MS = 200
const DEFAULT_TIMEOUT_MS = 5000

/** Whether some node shows exactly `data`. */
export function showsText(root: DumpNode, data: string): boolean {
  return allNodes(root).some(
    (node) => !node.hidden && (node.value === data || node.label === data || node.label.split('\n').includes(data)),
  )
}

export async function waitForText(read: () => Promise<DumpNode>, input: Input, deadline: Deadline): Promise<Result> {
  const text = typeof input.text === 'string' && input.text !== '' ? input.text : undefined
  const gone = typeof input.textGone === 'string' && input.textGone !== '' ? input.textGone : undefined
  const expression = typeof input.expression === 'string' && input.expression !== '' ? input.expression : undefined
  // The package's precedence: text, else textGone, else expression (as text).
  const wanted = text ?? (gone === undefined ? expression : undefined)
  const data = wanted ?? gone ?? ''
  const present = wanted !== undefined
  const timeoutMs = Number(input.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  const started = Date.now()
  for (;;) {
    if (showsText(await read(), data) === present) return {matched: true, elapsedMs: Date.now() - started}
    const remaining = Math.min(started + timeoutMs - Date.now(), deadline.remainingMs())
    if (remaining <= 0) return {matched: false, reason: 'timeout'}
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, remaining)))
  }
}
