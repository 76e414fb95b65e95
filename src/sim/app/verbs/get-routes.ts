import {locationOf} from '../router.js'
import type {Verb} from './verb.js'

/** A Router-based app: the root Navigator's pages carry no names, and the platform gave no default route. */
export const getRoutesVerb: Verb = {
  name: 'get_routes',
  wakesFrames: true,
  run: app => ({location: '', title: '', uri: locationOf(app.state)}),
}
