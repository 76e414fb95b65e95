import {boolean, object, readAs, string, type Infer} from '../shape.js'

/** What `tapir trace start` keeps beside the session, for every process to append by. */
const stateShape = object({file: string, screenshots: boolean, startedAt: string})
export type TraceState = Infer<typeof stateShape>

export function readTraceStateValue(value: unknown): TraceState | undefined {
  const read = readAs(stateShape, value)
  return 'value' in read ? read.value : undefined
}
