import {TapirError} from '../errors.js'
import type {DebugService} from '../vm/app-connection.js'
import type {InstanceRef} from '../vm/instance-ref.js'
import {RpcError} from '../vm/rpc-error.js'
import {defineVerb} from './define.js'
import {sent} from './dusk/facts.js'

const COMPILATION_ERROR = 113
const INVALID_REQUEST = -32600

/** DWDS in WebSocket mode (flutter run -d web-server) has no evaluate at all (docs/dwds-and-vm.md). */
const NO_EVALUATE_IN_WEBSOCKET_MODE =
  "evaluate is not available: the app's web debug service runs DWDS in WebSocket mode (flutter run -d web-server), which has no expression evaluation. Start the app with `tapir start --device=chrome` (flutter run -d chrome) to evaluate."
/** ChromeProxyService without an expression compiler. */
const NO_EXPRESSION_COMPILER =
  "evaluate is off in the app's web debug service: flutter was started with --no-web-enable-expression-evaluation, or without an expression compiler. Start it again without that flag (tapir start --device=chrome) to evaluate."

/** The VM evaluates `await` only inside an async closure, and then answers with its Future. */
export function evaluationSource(expression: string): string {
  return /\bawait\b/.test(expression) ? `(() async => ${expression})()` : expression
}

function asText(value: InstanceRef): string {
  if (value.kind === 'Null') return 'null'
  if (value.valueAsString !== undefined) return value.valueAsString + (value.valueAsStringIsTruncated === true ? '…' : '')
  return `Instance of '${value.class?.name ?? 'Object'}'`
}

function failure(error: RpcError, service: DebugService): TapirError {
  if (service === 'dwds-websocket') return new TapirError(NO_EVALUATE_IN_WEBSOCKET_MODE, 'app', {code: error.code})
  if (service === 'dwds-chrome' && error.code === INVALID_REQUEST) return new TapirError(NO_EXPRESSION_COMPILER, 'app', {code: error.code})
  if (error.code === COMPILATION_ERROR) {
    const reason = (error.details ?? '').split('\n').find((line) => line.includes('Error:')) ?? error.details ?? error.rpcMessage
    return new TapirError(`The expression does not compile: ${reason.replace(/^.*?Error: /, '')}`, 'app', {code: error.code})
  }
  return new TapirError(
    `evaluate failed: ${error.rpcMessage} (${error.code})${error.details ? `: ${error.details.split('\n')[0]}` : ''}`,
    'app',
    {code: error.code},
  )
}

export const evaluate = defineVerb({
  name: 'evaluate',
  tool: 'tapir_evaluate',
  title: 'Evaluate Dart',
  dispatch: 'vm:evaluate',
  summary: "Evaluate a Dart expression in the app's root library; it may change state.",
  details: 'What lib/main.dart imports is in scope.',
  example: '--expression="Auth.user?.email"',
  kind: 'action',
  dusk: {
    on: 'driven',
    method: 'evaluate',
    note: "through 0.0.1's Tinker bridge, not the VM's evaluate",
    params: {expression: sent},
    tool: {
      tool: 'dusk_evaluate',
      summary: 'Run one Dart expression inside the app and answer its value as text.',
      params: ['expression'],
    },
  },
  step: 'any',
  record: {as: 'comment', why: 'a read'},
  params: [
    {
      name: 'expression',
      brief: 'One Dart expression, no semicolon.',
      type: 'string',
      required: true,
      description: 'One Dart expression: no statements, no trailing semicolon.',
      missing: 'Missing --expression=<dart expression>.',
    },
  ],
  async execute(call, input) {
    const {expression} = input
    let value: InstanceRef
    const app = await call.app()
    try {
      value = await app.evaluate(evaluationSource(expression), call.deadline)
    } catch (error) {
      throw error instanceof RpcError ? failure(error, await app.debugService(call.deadline)) : error
    }
    // DWDS (a web app) answers a compile error with an @Error result, not error 113.
    const compileError = /^CompilationError: (.*)/.exec(String(value.message ?? ''))
    if ((value.type === '@Error' || value.type === 'Error') && compileError)
      throw new TapirError(`The expression does not compile: ${compileError[1]!.replace(/^.*?Error: /, '')}`, 'app')
    if (value.type === '@Error' || value.type === 'Error') {
      throw new TapirError(`The expression threw: ${(value.message ?? '').replace(/^Unhandled exception:\n/, '').split('\n')[0]}`, 'app')
    }
    return {expression, result: asText(value)}
  },
  report: (result) => ({stdout: result.result}),
})
