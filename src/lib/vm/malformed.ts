import {TapirError} from '../errors.js'
import {readAs, type Shape} from '../shape.js'

/** An answer from the app that does not have the shape the protocol gives it (exit 3). */
export function malformedAnswer(where: string, what: string): TapirError {
  return new TapirError(`The app sent a malformed answer to ${where}: ${what}.`, 'app')
}

/** An answer from the app, checked against what tapir expects of it: a wrong shape is a
 *  malformed answer (exit 3) that names the method and the field. */
export function checkAnswer<T>(method: string, shape: Shape<T>, value: unknown): T {
  const read = readAs(shape, value, 'result')
  if ('problem' in read) throw malformedAnswer(method, read.problem.replace(/^its result\./, 'its '))
  return read.value
}
