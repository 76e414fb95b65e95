import type {AnyCommand} from '../lib/commands/types.js'
import {RECORD} from './record.js'
import {HOT_RESTART_COMMAND, RELOAD_COMMAND} from './reload-command.js'
import {RUN} from './run.js'
import {STATUS} from './status.js'
import {STOP} from './stop.js'

/** The commands run as often as a verb, against an app already running (DESIGN §9 budgets their
 *  start-up): the quick bundle holds them with the verbs and none of the rest (scripts/bundle.mjs).
 *  Not `tapir test`: its `--fresh` restarts the app, and starting one would double this bundle. */
export const QUICK_COMMANDS: readonly AnyCommand[] = [HOT_RESTART_COMMAND, RECORD, RELOAD_COMMAND, RUN, STATUS, STOP]
