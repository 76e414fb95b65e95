import type {AppModel} from '../app-model.js'
import type {Params} from '../params.js'

/** One `ext.tapir.<name>` handler. */
export interface ExtensionHandler {
  readonly name: string
  /** The section of the tool reference that names this extension (spec/tapir-extensions.json):
   *  the sim registers nothing a real app lacks (test/contract/sim-extensions.test.ts). */
  readonly cites: string
  /** Tapir wakes the app at this extension's entry, so its answers carry `warnings` while no frame can be drawn. */
  readonly wakesFrames: boolean
  run(app: AppModel, params: Params): Record<string, unknown> | Promise<Record<string, unknown>>
}
