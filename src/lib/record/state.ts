import {boolean, list, number, object, optional, readAs, record, string, type FieldsOf, type Infer} from '../shape.js'

const predicateFields = {key: optional(string), semanticsLabel: optional(string), text: optional(string), contains: optional(string)}

/** The predicates of a find, as the recording writes them. */
export type Predicates = FieldsOf<typeof predicateFields>
const predicatesShape = object(predicateFields)

/** One line of a snapshot the session saw: its role, label and ref (a `- text` line has none),
 *  whether its value read as an obscured field's, and whether it was marked `[offscreen]`. Never
 *  the value itself. */
const screenNode = object({role: string, label: string, ref: optional(string), obscured: optional(boolean), offscreen: optional(boolean)})
export type ScreenNode = Infer<typeof screenNode>

/** An observe candidate the session saw: its role and label, its place (`nth` of `of`) among
 *  the candidates with that role and label, and the number of actions recorded before it. */
const candidate = object({role: string, label: string, nth: number, of: number, after: number})
export type Candidate = Infer<typeof candidate>

/** What a recording keeps between calls (and, for the session's, between processes): only what
 *  tapir already received on the session, never anything asked of the app for it. */
const stateShape = object({
  /** How many actions were recorded: a screen and candidates are kept with the count they came
   *  after, so an observe is read against a snapshot only when no action came between. */
  actions: number,
  /** The file the steps go to (absolute). */
  file: string,
  startedAt: string,
  version: string,
  appPackage: string,
  /** The environment variables the steps read (TAPIR_SECRET_… and any `${env.NAME}` written). */
  secrets: list(string),
  /** The names bound so far with --as. */
  names: list(string),
  /** The last snapshot of the whole tree the session saw (a snap without within, grep or depth,
   *  or an action's own snapshot), in tree order; `complete` unless interactiveOnly left out the
   *  lines without a ref. */
  screen: optional(object({complete: boolean, nodes: list(screenNode), after: number})),
  /** Each qN an observe answered, with what it showed of the widget. */
  candidates: record(candidate),
  /** Each qN the session's own finds returned, with their predicates: such a handle keeps them. */
  finds: record(object({...predicateFields, matches: number, written: optional(predicatesShape)})),
  /** The first action no step could be written for: every step after it is a comment. */
  unwritten: optional(string),
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
  return {
    file,
    startedAt: new Date().toISOString(),
    version,
    appPackage: 'tapir',
    actions: 0,
    secrets: [],
    names: [],
    candidates: {},
    finds: {},
  }
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
