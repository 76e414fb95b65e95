import type {ExtensionHandler} from './extension-handler.js'

export const bootIdHandler: ExtensionHandler = {
  name: 'boot_id',
  wakesFrames: false,
  run: (app) => ({bootId: app.bootId}),
}
