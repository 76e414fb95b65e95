import {object, string} from '../shape.js'
import {executeVerb} from '../verbs/execute-verb.js'
import {snap} from '../verbs/read-verbs.js'
import type {VerbContext} from '../verbs/types.js'
import {Deadline} from '../vm/deadline.js'
import {SEMANTICS_DUMP} from '../vm/zero-install.js'
import {NOT_GENERATED, parseSemanticsDump} from '../zero/semantics-dump.js'
import {renderSnapshot} from '../zero/snapshot.js'

const dumpAnswer = object({data: string})
const REF = / \[ref=e\d+\]/g

/**
 * The screen as snapshot lines, read without giving any node a ref. The package's `snap` would
 * mint an `eN` for each node it had not seen (Dusk's `RefRegistry.register`), so a traced flow would
 * see other numbers than an untraced one; Flutter's own semantics dump (rendering/binding.dart,
 * registered when !kReleaseMode) mints nothing. Its lines carry no refs, since the semantics ids
 * are not the package's numbers. An app without the package is read through its own snap, which
 * is this same dump and whose refs are the semantics ids the flow uses.
 */
export async function screenText(context: VerbContext): Promise<string> {
  const deadline = new Deadline(context.timeoutMs, 0)
  const app = await context.app(deadline)
  if ((await app.appPackage(deadline)) === undefined) {
    const answer = await executeVerb(snap, context, {})
    if (typeof answer.snapshot !== 'string') throw new Error('the snap held no snapshot')
    return answer.snapshot
  }
  const {data} = await app.callFlutter(SEMANTICS_DUMP, {}, dumpAnswer, deadline)
  const root = parseSemanticsDump(data)
  if (root === undefined)
    throw new Error(`the app builds no semantics tree now ("${NOT_GENERATED}"); tapir does not turn it on for a trace`)
  return renderSnapshot(root).replace(REF, '')
}
