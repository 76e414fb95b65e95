import {runLine as runAnyLine} from '../cli/main.js'
import {QUICK_COMMANDS} from './quick-list.js'

/** The entry of the quick bundle (dist/quick.cjs), which bin/run.cjs tries first: a verb's line
 *  or a quick command's. Resolves to false, having done nothing, for any other line. */
export function runLine(argv: readonly string[]): Promise<boolean> {
  return runAnyLine(argv, QUICK_COMMANDS)
}
