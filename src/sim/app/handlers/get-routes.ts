import {locationOf} from '../router.js'
import type {ExtensionHandler} from './extension-handler.js'

/** A Router-based app: the root Navigator's pages carry no names, and the platform gave no default route. */
export const getRoutesHandler: ExtensionHandler = {
  name: 'get_routes',
  cites: 'tapir_get_routes',
  wakesFrames: true,
  run: (app) => ({location: '', title: '', uri: locationOf(app.state)}),
}
