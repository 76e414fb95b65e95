import type {Hook} from '@oclif/core/hooks'
import {reportStdoutFailures} from '../lib/output/print.js'

/** Before oclif runs anything (a command, help, the version): a stdout that cannot be written is
 *  one line and exit 1, and a reader that stops early no error, as on a verb's own path. */
const hook: Hook.Init = async function () {
  reportStdoutFailures()
}

export default hook
