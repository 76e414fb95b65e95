import {ExtensionError, type EvaluateOutcome, type SimApp} from '../app-contract.js'
import {AppModel, type Lifecycle} from './app-model.js'
import {tapirError} from './errors.js'
import {evaluateInApp} from './evaluate/evaluate.js'
import {framesWarning} from './lifecycle-warnings.js'
import {Params} from './params.js'
import {VERBS} from './verbs/registry.js'

/** The simulated "Monitors" app with TapirPlugin installed. */
export interface MonitorsOptions {
  /** The perf regression knob: each monitor row's sparkline builds its bars twice. */
  perfRegression?: boolean
}

export function createMonitorsApp(options: MonitorsOptions = {}): SimApp {
  return new MonitorsApp(options)
}

class MonitorsApp implements SimApp {
  readonly extensions = VERBS.map(verb => verb.name)
  private readonly app: AppModel
  private readonly verbs = new Map(VERBS.map(verb => [verb.name, verb]))

  constructor(options: MonitorsOptions) {
    this.app = new AppModel(Date.now, options.perfRegression ?? false)
  }

  /** True once close_app has run: the desktop app is gone, so every later call fails until a restart (a relaunch). */
  get closed(): boolean {
    return this.app.closed
  }

  async call(method: string, params: Record<string, string>): Promise<Record<string, unknown>> {
    if (this.app.closed) throw tapirError(`ext.tapir.${method}: the app has closed (close_app asked it to shut down); relaunch it to continue`, 'unexpected')
    const verb = this.verbs.get(method)
    if (verb === undefined) throw tapirError(`ext.tapir.${method} is not registered`, 'unexpected')
    this.app.betweenCalls()
    try {
      const result = await verb.run(this.app, new Params(method, params))
      const warnings = verb.wakesFrames ? framesWarning(this.app.lifecycle) : undefined
      return warnings === undefined ? result : {...result, warnings}
    } catch (error) {
      if (error instanceof ExtensionError) throw error
      throw tapirError(`ext.tapir.${method}: ${String(error)}`, 'unexpected')
    }
  }

  evaluate(expression: string): EvaluateOutcome {
    return evaluateInApp(this.app, expression)
  }

  restart(): void {
    this.app.boot()
  }

  setLifecycle(state: Lifecycle): void {
    this.app.lifecycle = state
    this.app.pump()
  }
}
