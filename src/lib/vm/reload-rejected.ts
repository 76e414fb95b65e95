import {TapirError} from '../errors.js'

/** A hot reload or restart the tooling refused, typically because the code does not compile:
 *  the user's code to fix, so a local failure (exit 1), with the compiler's words when known. */
export class ReloadRejected extends TapirError {
  constructor(
    readonly what: 'Hot reload' | 'Hot restart',
    readonly compileMessage: string,
  ) {
    super(`${what} failed: ${compileMessage}`, 'local', {compileError: compileMessage})
  }
}
