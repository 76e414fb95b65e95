import type {Verb} from './verb.js'

export const bootIdVerb: Verb = {
  name: 'boot_id',
  wakesFrames: false,
  run: app => ({bootId: app.bootId}),
}
