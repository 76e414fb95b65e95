import {ExtensionError, type AppSource, type EvaluateReply, type SimApp} from '../app-contract.js'
import {AppModel, type Lifecycle} from './app-model.js'
import {displayList, type DisplayList} from './display-list.js'
import {tapirError} from './errors.js'
import {evaluateInApp} from './evaluate/evaluate.js'
import type {View} from './geometry.js'
import {EXTENSION_HANDLERS} from './handlers/registry.js'
import {framesWarning} from './lifecycle-warnings.js'
import {Params} from './params.js'
import type {SeedData} from './state.js'

export interface MonitorsOptions extends SeedData {
  /** The perf regression knob: each monitor row's sparkline builds its bars twice. */
  perfRegression?: boolean
}

/** The simulated "Monitors" app with TapirPlugin installed; the seed sets the data its backend holds. */
export function createMonitorsApp(options: MonitorsOptions = {}): SimApp {
  return new MonitorsApp(options)
}

class MonitorsApp implements SimApp {
  readonly extensions = EXTENSION_HANDLERS.map((handler) => handler.name)
  private readonly app: AppModel
  private readonly handlers = new Map(EXTENSION_HANDLERS.map((handler) => [handler.name, handler]))

  constructor({perfRegression = false, ...seed}: MonitorsOptions) {
    this.app = new AppModel(Date.now, seed, perfRegression)
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
    try {
      const result = await handler.run(this.app, new Params(method, params))
      const warnings = handler.wakesFrames ? framesWarning(this.app.lifecycle) : undefined
      return warnings === undefined ? result : {...result, warnings}
    } catch (error) {
      if (error instanceof ExtensionError) throw error
      throw tapirError(`ext.tapir.${method}: ${String(error)}`, 'unexpected')
    }
  }

  evaluate(expression: string): EvaluateReply {
    return evaluateInApp(this.app, expression)
  }

  restart(): void {
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

  setLifecycle(state: Lifecycle): void {
    this.app.lifecycle = state
    this.app.pump()
  }
}
