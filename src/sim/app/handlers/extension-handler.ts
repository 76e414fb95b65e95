import type {AppModel} from '../app-model.js'
import type {Params} from '../params.js'

/** One `ext.tapir.<name>` handler. */
export interface ExtensionHandler {
  readonly name: string
  /** Tapir wakes the app at this extension's entry, so its answers carry `warnings` while no frame can be drawn. */
  readonly wakesFrames: boolean
  run(app: AppModel, params: Params): Record<string, unknown> | Promise<Record<string, unknown>>
}
