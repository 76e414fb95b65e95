import {described, list, object, optional, string, type Infer} from '../shape.js'

/**
 * The VM Service's own answers tapir reads while finding the app's isolate, as the protocol
 * gives them (dart-lang/sdk runtime/vm/service/service.md: `VM`, `@Isolate`, `Isolate`,
 * `@Library`): checked where they enter (app-connection.ts), typed after.
 */

/** `getVM`: the isolates it runs. DWDS names itself in `name` (debugServiceOf reads it). */
export const vmAnswer = object({
  isolates: optional(list(described('an isolate reference with a string id', object({id: string})))),
})

/** `getIsolate`: its id, the extensions it registered, and its root library. */
export const isolateAnswer = object({
  id: string,
  extensionRPCs: optional(described('a list of method names', list(string))),
  rootLib: optional(described('a library reference with a string id', object({id: string}))),
})
export type IsolateAnswer = Infer<typeof isolateAnswer>

/** `getIsolate`, for the libraries it loaded (a Flutter library to evaluate in). */
export const librariesAnswer = object({
  libraries: optional(list(described('a library reference with a string id and uri', object({id: string, uri: string})))),
})
