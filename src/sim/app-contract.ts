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

/**
 * A value the app's code produced, as Dart holds it. The debug service describes it: the VM as an
 * `@Instance` under a ring id, DWDS from the JavaScript object the web build made of it.
 */
export type AppValue =
  | {readonly type: 'int' | 'double'; readonly value: number}
  | {readonly type: 'String'; readonly value: string}
  | {readonly type: 'bool'; readonly value: boolean}
  | {readonly type: 'Null'}
  | {readonly type: 'List'; readonly elementType: string; readonly length: number}
  /** Any other object: its class, the library declaring it, and its `toString()`. */
  | {readonly type: 'object'; readonly className: string; readonly library: string; readonly text: string}
  | {readonly type: 'Type'; readonly name: string}
  | {readonly type: 'Closure'; readonly text: string}

/** What evaluating an expression in the root library came to: compiled by the front end (or the
 *  web's expression compiler), then run. */
export type EvaluateReply =
  | {kind: 'value'; value: AppValue}
  /** It threw: the `toString()` of what was thrown. */
  | {kind: 'thrown'; exception: string}
  /** It did not compile: the compiler's report. */
  | {kind: 'compileError'; details: string}

/** What the app does through `dart:developer` and `print`, which a debug service turns into
 *  events on its streams (Logging, Extension, Stdout). */
export type DeveloperEvent =
  /** `developer.log(message, name: name, level: level)`. */
  | {
      readonly kind: 'log'
      readonly message: string
      readonly name: string
      readonly level: number
      readonly sequenceNumber: number
      readonly time: number
    }
  /** `developer.postEvent(extensionKind, data)` on the Extension stream. */
  | {readonly kind: 'post'; readonly extensionKind: string; readonly data: Readonly<Record<string, unknown>>}
  /** A line the app printed (`debugPrint` prints through `print`). */
  | {readonly kind: 'print'; readonly text: string}

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
  /** The VM `evaluate` RPC, in the root library or (for a library the isolate lists) that library. */
  evaluate(expression: string, library?: string): EvaluateReply
  /** The `ext.flutter.*` extensions the app's own state answers (the semantics dumps and tree). */
  flutterExtension?(method: string, params: Record<string, string>): Record<string, unknown>
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
  /** Calls `listener` with everything the app logs, posts or prints from now on; answers how to stop. */
  onDeveloperEvent?(listener: (event: DeveloperEvent) => void): () => void
  /** Lifecycle knob: 'hidden' makes frame-forcing verbs answer with a `warnings` block. */
  setLifecycle(state: 'resumed' | 'hidden' | 'paused' | 'detached'): void
}
