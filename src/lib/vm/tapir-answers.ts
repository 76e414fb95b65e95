import {
  boolean,
  integer,
  list,
  nullable,
  number,
  object,
  optional,
  record,
  anything,
  string,
  type Infer,
  type ObjectOf,
  type ObjectShape,
  type Shape,
} from '../shape.js'

// The answers of the app's `ext.tapir.*` extensions that more than one part of tapir reads (the
// catalogue's verbs and perf_run's driver). A verb's own answer is declared beside its params.

/** What any answer may carry besides its own fields (the reference's "universal response
 *  fields"): frames forced awake, frames not produced, render errors, relocated refs. */
export const appNotes = object({
  framesForced: optional(boolean),
  warnings: optional(object({lifecycleState: optional(string), platform: optional(string), hint: optional(string)})),
  renderErrors: optional(
    object({
      count: optional(integer),
      recent: optional(list(object({type: optional(string), message: optional(string)}))),
    }),
  ),
  reresolved: optional(list(string)),
})

export type AppNotes = Infer<typeof appNotes>

type Fields = {readonly [name: string]: Shape<unknown>}

/** An extension's answer: its own fields, and the notes any answer may carry. */
export function answer<const F extends Fields>(fields: F): ObjectShape<typeof appNotes.fields & F> {
  return object({...appNotes.fields, ...fields})
}

/** An answer tapir reads nothing of: it only has to be a JSON object. */
export const anyAnswer = answer({})

/** `boot_id`: an opaque id minted when tapir's extensions register, new after every restart. */
export const bootAnswer = answer({bootId: string})

/** A rect in logical pixels, as the screenshot extension's geometry mode gives it. */
export const rect = object({x: number, y: number, width: number, height: number})
export type Rect = Infer<typeof rect>

/** `screenshot` with `geometry: "true"`: where a widget (or the viewport) is, nothing rasterised. */
export const geometryAnswer = answer({rect: optional(rect), devicePixelRatio: optional(number)})

/** `find`: a qN handle, or `matched: false` (and a null ref) when nothing matched. */
export const findAnswer = answer({ref: optional(nullable(string)), matched: boolean})

/** `observe`: the interactive widgets on screen, each with a qN ref. */
export const observeAnswer = answer({
  candidates: list(object({ref: string, role: optional(string), label: optional(string)})),
})

/** `get_routes`: the Router's location (null before a Router is mounted), the top page, a title hint. */
export const routesAnswer = answer({uri: optional(nullable(string)), location: optional(string), title: optional(string)})

/** `exceptions`: newest first. */
export const exceptionsAnswer = answer({
  exceptions: list(object({type: optional(string), message: optional(string)})),
  count: optional(integer),
})

const distribution = object({p50: number, p90: number, p99: number, worst: number})

/** `perf_end`: the report of the closed session, or its refusal (`refused: true`, a reason, no metrics). */
export const perfReport = answer({
  sessionToken: optional(string),
  refused: optional(boolean),
  reason: optional(string),
  mode: optional(string),
  env: optional(record(anything)),
  summary: optional(
    object({
      budgetMs: optional(number),
      frames: optional(
        object({
          count: number,
          painted: number,
          dropped: number,
          overBudget: number,
          buildMs: optional(distribution),
          rasterMs: optional(distribution),
        }),
      ),
      blocksByCount: optional(list(object({name: string, perFrame: number}))),
    }),
  ),
  counters: optional(nullable(record(anything))),
  insights: optional(list(object({id: optional(string), severity: optional(string), title: optional(string)}))),
})

export type PerfReport = ObjectOf<typeof perfReport.fields>
