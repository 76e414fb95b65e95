// The seam between the simulated VM Service (server/) and the simulated Flutter app (app/).
// The sim stands apart from the client side: it is its own TypeScript project
// (src/sim/tsconfig.json), which cannot compile an import of src/lib or src/commands.

/** Thrown by an extension handler; the server turns it into a JSON-RPC error exactly as the
 *  Dart VM does for `ServiceExtensionResponse.error(code, details)`. */
export class ExtensionError extends Error {
  constructor(
    /** -32602 or -32016..-32000, as dart:developer allows. */
    readonly code: number,
    /** The `data.details` string: for tapir, JSON text `{message, envelope: {type, suggestions, widget_path?}}`. */
    readonly details: string,
  ) {
    super(details)
  }
}

/** What an `evaluate` RPC against the root library answers, shaped as the VM's result. */
export type EvaluateReply =
  | {kind: 'instance'; result: Record<string, unknown>}
  | {kind: 'error'; result: Record<string, unknown>}
  | {kind: 'compileError'; details: string}

/** The app's "source code" a hot reload picks up: what the sim's build reads that a developer edits. */
export interface AppSource {
  /** The heading of the sign-in page (default "Sign in"). */
  signInTitle?: string
}

export interface WebView {
  readonly width: number
  readonly height: number
  readonly devicePixelRatio: number
  readonly touch: boolean
}

export interface WebDisplayList {
  readonly frame: number
  readonly view: WebView
  readonly background: string
  readonly boxes: ReadonlyArray<{
    rect: {left: number; top: number; width: number; height: number}
    visible: {left: number; top: number; width: number; height: number}
    colour: string
    text?: string
  }>
}

export interface SimApp {
  /** ext.tapir.* names (without the `ext.tapir.` prefix) this app registers, `boot_id` last. */
  readonly extensions: readonly string[]
  /** Runs one extension. `params` are exactly what the VM hands a Dart handler: string values,
   *  `isolateId` included. Resolves to the result object; rejects with ExtensionError. */
  call(method: string, params: Record<string, string>): Promise<Record<string, unknown>>
  /** The VM `evaluate` RPC in the root library. */
  evaluate(expression: string): EvaluateReply
  /** Hot restart: fresh app state, new boot id, refs and baselines cleared. */
  restart(): void
  /** Hot reload: the state stays, the widgets build again from the new source. */
  reassemble?(source: AppSource): void
  /** True once close_app asked the app to shut down (a desktop app then exits). */
  readonly closed: boolean
  /** The window changed (size in logical pixels, pixel ratio, touch): the app lays out again. */
  resize?(view: WebView): void
  /** The last frame as boxes the page draws; `frame` grows with every frame drawn. */
  displayList?(): WebDisplayList
  /** Calls `listener` after every frame; answers how to stop. */
  onFrame?(listener: () => void): () => void
  /** Lifecycle knob: 'hidden' makes frame-forcing verbs answer with a `warnings` block. */
  setLifecycle(state: 'resumed' | 'hidden' | 'paused' | 'detached'): void
}
