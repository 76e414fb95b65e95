import {VERBS} from '../lib/verbs/index.js'
import {commandClass} from '../oclif/command-class.js'
import {verbCommand} from '../oclif/verb-command.js'
import {COMMANDS as DEFINED} from './list.js'

/** Every command id and its class, the list oclif reads (package.json's oclif.commands) for help,
 *  the command list and completion: a class made from each command's definition (list.ts), and
 *  one `tapir:<verb>` per catalogue verb. Every line is read and run by the one reader either way. */
export const COMMANDS = {
  ...Object.fromEntries(DEFINED.map((command) => [command.id, commandClass(command, DEFINED)])),
  ...Object.fromEntries(VERBS.map((verb) => [`tapir:${verb.name}`, verbCommand(verb)])),
}
