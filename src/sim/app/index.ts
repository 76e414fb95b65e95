import {ExtensionError, type AppSource, type DeveloperEvent, type EvaluateReply, type SimApp} from '../app-contract.js'
import {AppModel, type Lifecycle} from './app-model.js'
import {displayList, type DisplayList} from './display-list.js'
import {tapirError} from './errors.js'
import {evaluateInApp} from './evaluate/evaluate.js'
import {evaluateInFlutter} from './evaluate/flutter-evaluate.js'
import {semanticsDump, semanticsTreeJson} from './flutter-semantics.js'
import type {View} from './geometry.js'
import {DUSK_ONLY_HANDLERS, EXTENSION_HANDLERS} from './handlers/registry.js'
import {framesWarning} from './lifecycle-warnings.js'
import {Params} from './params.js'
import type {SeedData} from './state.js'
import {WidgetInspector} from './widget-inspector.js'

export interface MonitorsOptions extends SeedData {
  /** The perf regression knob: each monitor row's sparkline builds its bars twice. */
  perfRegression?: boolean
  /** Built for the web and shown in a browser tab (DWDS), rather than a desktop window. */
  web?: boolean
  /** `--dart-define=TAPIR_FORCE_FRAMES` (default true): tapir wakes a hidden or paused window at a verb's entry. */
  forceFrames?: boolean
  /** The tapir package is installed (default true); false: a debug app with only Flutter's own extensions. */
  tapirPackage?: boolean
}

/** The simulated "Monitors" app with TapirPlugin installed; the seed sets the data its backend holds. */
export function createMonitorsApp(options: MonitorsOptions = {}): SimApp {
  return new MonitorsApp(options)
}

class MonitorsApp implements SimApp {
  readonly extensions = EXTENSION_HANDLERS.map((handler) => handler.name)
  private readonly app: AppModel
  /** AccessibilityInspector's `_semanticsHandle` is set. */
  private inspectorHandle = false
  private inspector: WidgetInspector
  private readonly handlers = new Map([...EXTENSION_HANDLERS, ...DUSK_ONLY_HANDLERS].map((handler) => [handler.name, handler]))

  constructor({perfRegression = false, web = false, forceFrames = true, tapirPackage = true, ...seed}: MonitorsOptions) {
    this.app = new AppModel(Date.now, seed, perfRegression, {web, forceFrames, tapirPackage})
    this.inspector = new WidgetInspector(this.app)
  }

  /** True once close_app has run: the desktop app is gone, so every later call fails until a restart (a relaunch). */
  get closed(): boolean {
    return this.app.closed
  }

  async call(method: string, params: Record<string, string>): Promise<Record<string, unknown>> {
    if (this.app.closed)
      throw tapirError(`ext.tapir.${method}: the app has closed (close_app asked it to shut down); relaunch it to continue`, 'unexpected')
    const handler = this.handlers.get(method)
    if (handler === undefined) throw tapirError(`ext.tapir.${method} is not registered`, 'unexpected')
    this.app.betweenCalls()
    const woken = handler.wakesFrames && this.app.wake()
    const starved = handler.wakesFrames && !this.app.producesFrames
    const call = new Params(method, params)
    try {
      const result = await handler.run(this.app, call)
      const reresolved = this.app.refs.report(call.resolvedRefs)
      return {
        ...result,
        ...(reresolved.length > 0 ? {reresolved} : {}),
        ...(woken ? {framesForced: true} : {}),
        ...(starved ? {warnings: framesWarning(this.app.lifecycle, this.app.build.web)} : {}),
      }
    } catch (error) {
      if (error instanceof ExtensionError) throw error
      throw tapirError(`ext.tapir.${method}: ${String(error)}`, 'unexpected')
    } finally {
      if (woken) this.app.sleep()
    }
  }

  evaluate(expression: string, library?: string): EvaluateReply {
    if (library !== undefined) return evaluateInFlutter(this.app, expression, library)
    return evaluateInApp(this.app, expression)
  }

  flutterExtension(method: string, params: Record<string, string> = {}): Record<string, unknown> {
    if (method.startsWith('ext.flutter.inspector.')) return this.inspector.call(method, params)
    switch (method) {
      case 'ext.flutter.debugDumpSemanticsTreeInTraversalOrder':
        return {data: semanticsDump(this.app, 'traversal')}
      case 'ext.flutter.debugDumpSemanticsTreeInInverseHitTestOrder':
        return {data: semanticsDump(this.app, 'inverseHitTest')}
      case 'ext.flutter.accessibility.getSemanticsTree':
        return this.semanticsTree()
      default:
        throw new Error(`the app answers no ${method}`)
    }
  }

  /** `AccessibilityInspector._getSemanticsTree`: takes a handle once (kept until a restart); the
   *  tree it turned on is built by the next frame, so that first call asks for one. */
  private semanticsTree(): Record<string, unknown> {
    if (!this.inspectorHandle) {
      this.inspectorHandle = true
      const wasOn = this.app.semanticsEnabled
      this.app.semanticsHandles++
      if (!wasOn) return {error: 'rootSemanticsNode is null', needsFrame: true}
    }
    return semanticsTreeJson(this.app)
  }

  restart(): void {
    this.inspectorHandle = false
    this.inspector = new WidgetInspector(this.app)
    this.app.boot()
  }

  reassemble(source: AppSource): void {
    this.app.reassemble(source)
  }

  resize(view: View): void {
    this.app.resize(view)
  }

  displayList(): DisplayList {
    return displayList(this.app.frame, this.app.framesDrawn, this.app.view, this.app.state.settings.darkMode)
  }

  onFrame(listener: () => void): () => void {
    return this.app.onFrame(listener)
  }

  onDeveloperEvent(listener: (event: DeveloperEvent) => void): () => void {
    return this.app.onDeveloperEvent(listener)
  }

  setLifecycle(state: Lifecycle): void {
    this.app.lifecycle = state
    this.app.pump()
  }
}
