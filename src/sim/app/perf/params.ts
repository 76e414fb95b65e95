import {ExtensionError} from '../../app-contract.js'
import type {EnvelopeType} from '../errors.js'

/** JSON-RPC invalidParams: the perf verbs refuse a bad argument with -32602 rather than the usual -32000. */
export const INVALID_PARAMS = -32602

export function invalidParams(message: string, type: EnvelopeType): ExtensionError {
  return new ExtensionError(INVALID_PARAMS, JSON.stringify({message, envelope: {type, suggestions: []}}))
}
