import type {Verb} from './verb.js'

/** Pops every popup route (dialogs, menus) above the page. */
export const dismissModalsVerb: Verb = {
  name: 'dismiss_modals',
  wakesFrames: true,
  run(app) {
    const popped = app.state.popups.length
    app.state.popups = []
    app.pump()
    return {popped}
  },
}
