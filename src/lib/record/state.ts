import {boolean, list, number, object, optional, readAs, record, string, type FieldsOf, type Infer} from '../shape.js'

const predicateFields = {key: optional(string), semanticsLabel: optional(string), text: optional(string), contains: optional(string)}

/** The predicates of a find, as the recording writes them. */
export type Predicates = FieldsOf<typeof predicateFields>
const predicatesShape = object(predicateFields)

/** What a recording keeps between calls (and, for the session's, between processes). */
const stateShape = object({
  /** The file the steps go to (absolute). */
  file: string,
  startedAt: string,
  version: string,
  appPackage: string,
  viewport: optional(string),
  /** Whether the app registers the trace-free lookup the recorder reads it through (known from the first recorded call). */
  traceFree: optional(boolean),
  /** The environment variables replay needs (TAPIR_SECRET_…). */
  secrets: list(string),
  /** The names bound so far with --as. */
  names: list(string),
  /** Each qN the session's own finds returned, with their predicates: such a handle keeps them. */
  finds: record(object({...predicateFields, matches: number, written: optional(predicatesShape)})),
})
export type RecordingState = Infer<typeof stateShape>

/** Where a recording's state lives: the session's folder, or the memory of one MCP server. */
export interface RecordingStore {
  load(): RecordingState | undefined
  save(state: RecordingState): void
}

/** A recording remembers at most this many finds: an agent's session makes far fewer. */
export const MAX_FINDS = 500

/** The state a file holds, or undefined when it is not one. */
export function readState(value: unknown): RecordingState | undefined {
  const read = readAs(stateShape, value)
  return 'value' in read ? read.value : undefined
}

/** A recording that starts now into `file` (absolute). The app's package is tapir's until the
 *  first recorded call reads it from the connection (tapir or dusk). */
export function newRecordingState(file: string, version: string): RecordingState {
  return {file, startedAt: new Date().toISOString(), version, appPackage: 'tapir', secrets: [], names: [], finds: {}}
}

export function memoryStore(initial: RecordingState): RecordingStore {
  let state = initial
  return {
    load: () => state,
    save: (next) => {
      state = next
    },
  }
}
