import type {AnyCommand} from '../lib/commands/types.js'
import {RECORD} from './record.js'
import {HOT_RESTART_COMMAND, RELOAD_COMMAND} from './reload-command.js'
import {RUN} from './run.js'
import {STATUS} from './status.js'
import {STOP} from './stop.js'
import {TEST} from './test.js'

/** The commands run as often as a verb, against an app already running (DESIGN §9 budgets their
 *  start-up): the quick bundle holds them with the verbs and none of the rest (scripts/bundle.mjs).
 *  `tapir test` brings the start machinery its `--fresh=start` needs, about a tenth of the bundle:
 *  that costs a verb some 4 ms and saves a suite the load of the whole bundle after this one. */
export const QUICK_COMMANDS: readonly AnyCommand[] = [HOT_RESTART_COMMAND, RECORD, RELOAD_COMMAND, RUN, STATUS, STOP, TEST]
