import type {EvaluateReply} from '../../app-contract.js'
import type {AppModel} from '../app-model.js'
import {locationOf} from '../router.js'
import {instanceRef} from './instances.js'
import {CompileError} from './lexer.js'
import {parse} from './parser.js'
import {run} from './run.js'
import {staticType} from './types.js'
import {DartThrow, dartToString} from './values.js'

const SYNTHETIC_SOURCE = 'org-dartlang-debug:synthetic_debug_expression'

/** The VM `evaluate` RPC in the app's root library: compile (parse + type check), then run. */
export function evaluateInApp(app: AppModel, expression: string): EvaluateReply {
  let parsed
  try {
    parsed = parse(expression)
    staticType(parsed)
  } catch (error) {
    if (error instanceof CompileError) return {kind: 'compileError', details: compileDetails(expression, error)}
    throw error
  }
  try {
    const value = run(parsed, {user: app.state.user, monitors: app.state.monitors, currentRoute: locationOf(app.state)})
    return {kind: 'instance', result: instanceRef(value, () => app.nextObjectId())}
  } catch (error) {
    if (!(error instanceof DartThrow)) throw error
    return {
      kind: 'error',
      result: {
        type: '@Error',
        kind: 'UnhandledException',
        id: app.nextObjectId(),
        message: `Unhandled exception:\n${dartToString(error.thrown)}`,
      },
    }
  }
}

/** The front end's report: location, message, the source line and a caret under the culprit. */
function compileDetails(expression: string, error: CompileError): string {
  const [first, ...rest] = error.message.split('\n')
  return [
    `${SYNTHETIC_SOURCE}:1:${error.column}: Error: ${first}`,
    ...rest,
    expression,
    `${' '.repeat(error.column - 1)}${'^'.repeat(error.length)}`,
  ].join('\n')
}
