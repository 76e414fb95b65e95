import {messageOf} from '../errors.js'
import type {VerbContext} from '../verbs/types.js'
import type {StepDone, Tracer} from './tracer.js'

/** Appends the step when there is a tracer; answers why when it could not (the call stands). */
export async function appendStep(tracer: Tracer | undefined, context: VerbContext, step: StepDone): Promise<string | undefined> {
  if (!tracer) return undefined
  try {
    await tracer.step(context, step)
    // one call, one line: a process may end after this call
    await tracer.flush()
    return undefined
  } catch (error) {
    return `the trace ${tracer.file} was not written: ${messageOf(error)}`
  }
}
