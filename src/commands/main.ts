import {runLine as runAnyLine} from '../cli/main.js'
import {COMMANDS} from './list.js'

/** The entry of the whole bundle (dist/tapir.cjs), which bin/run.cjs runs a line from when the
 *  quick bundle (quick.ts) left it: resolves to false, having done nothing, for a line oclif
 *  answers (help, an unknown command). */
export function runLine(argv: readonly string[]): Promise<boolean> {
  return runAnyLine(argv, COMMANDS)
}
