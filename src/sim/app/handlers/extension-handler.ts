import type {AppModel} from '../app-model.js'
import type {Params} from '../params.js'

/** One `ext.tapir.<name>` handler. */
export interface ExtensionHandler {
  readonly name: string
  /** Tapir wakes the app at this extension's entry, so its answers carry `warnings` while no frame can be drawn. */
  readonly wakesFrames: boolean
  /** A read that leaves no trace (ext.tapir.lookup): the call stands for no time between calls, so
   *  no frame is drawn for it, and it wakes nothing. */
  readonly leavesNoTrace?: boolean
  run(app: AppModel, params: Params): Record<string, unknown> | Promise<Record<string, unknown>>
}
