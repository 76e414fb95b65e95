import type {GateOptions} from '../gate.js'
import type {Params} from '../params.js'

export function gateOptions(params: Params): GateOptions {
  return {checkStable: params.bool('checkStable', true), checkReceivesEvents: params.bool('checkReceivesEvents', true)}
}
