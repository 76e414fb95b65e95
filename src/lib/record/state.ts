import {boolean, list, number, object, optional, readAs, record, string} from '../shape.js'

/** The predicates of a find, as the recording writes them. */
export interface Predicates {
  key?: string
  semanticsLabel?: string
  text?: string
  contains?: string
}

/** What a recording keeps between calls (and, for the session's, between processes). */
export interface RecordingState {
  /** The file the steps go to (absolute). */
  file: string
  startedAt: string
  version: string
  appPackage: string
  viewport?: string
  /** Whether the app registers the trace-free lookup the recorder reads it through (known from the first recorded call). */
  traceFree?: boolean
  /** The environment variables replay needs (TAPIR_SECRET_…). */
  secrets: string[]
  /** The names bound so far with --as. */
  names: string[]
  /** Each qN the session's own finds returned, with their predicates: such a handle keeps them. */
  finds: Record<string, Predicates & {matches: number; written?: Predicates}>
}

/** Where a recording's state lives: the session's folder, or the memory of one MCP server. */
export interface RecordingStore {
  load(): RecordingState | undefined
  save(state: RecordingState): void
}

/** A recording remembers at most this many finds: an agent's session makes far fewer. */
export const MAX_FINDS = 500

const stateShape = object({
  file: string,
  startedAt: string,
  version: string,
  appPackage: string,
  viewport: optional(string),
  traceFree: optional(boolean),
  secrets: list(string),
  names: list(string),
  finds: record(
    object({
      key: optional(string),
      semanticsLabel: optional(string),
      text: optional(string),
      contains: optional(string),
      matches: number,
      written: optional(
        object({key: optional(string), semanticsLabel: optional(string), text: optional(string), contains: optional(string)}),
      ),
    }),
  ),
})

/** The state a file holds, or undefined when it is not one. */
export function readState(value: unknown): RecordingState | undefined {
  const read = readAs(stateShape, value)
  return 'value' in read ? (read.value as RecordingState) : undefined
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
