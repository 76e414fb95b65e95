import type {ExtensionHandler} from './extension-handler.js'

export const bootIdHandler: ExtensionHandler = {
  name: 'boot_id',
  cites: 'Universal response fields: `framesForced`, `warnings`, `reresolved`',
  wakesFrames: false,
  run: (app) => ({bootId: app.bootId}),
}
