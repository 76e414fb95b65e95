import {runLine as runAnyLine} from '../cli/main.js'
import {COMMANDS} from './list.js'

/** The entry of the one bundle (dist/tapir.cjs) that bin/run.cjs runs every command line from:
 *  resolves to false, having done nothing, for a line oclif answers (help, an unknown command). */
export function runLine(argv: readonly string[]): Promise<boolean> {
  return runAnyLine(argv, COMMANDS)
}
