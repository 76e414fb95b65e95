import Run from '../commands/run.js'
import {VERBS} from '../lib/verbs/index.js'
import {verbCommand} from './verb-command.js'

/** The commands that act on the app: tapir:run, and one `tapir:<verb>` per catalogue verb. */
export const VERB_COMMANDS = {
  'tapir:run': Run,
  ...Object.fromEntries(VERBS.map((verb) => [`tapir:${verb.name}`, verbCommand(verb)])),
}
