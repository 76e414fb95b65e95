import type {ExtensionHandler} from './extension-handler.js'

const REASON =
  'ext.tapir.evaluate is a debug-only sentinel and never evaluates by itself; ' +
  'evaluate the expression with the VM Service evaluate RPC in the root library (tapir_evaluate and tapir:evaluate do)'

/** Registered so a client can see tapir is installed in a debug build; the evaluation happens over the VM Service. */
export const evaluateSentinelHandler: ExtensionHandler = {
  name: 'evaluate',
  cites: 'tapir_evaluate',
  wakesFrames: false,
  run(_app, params) {
    const expression = params.optional('expression')
    return {evaluated: false, ...(expression === undefined ? {} : {expression}), reason: REASON}
  },
}
