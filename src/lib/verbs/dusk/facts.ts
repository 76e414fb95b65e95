/** The rules a verb's `dusk` facts are written with; their types are in ../types.ts. */
import type {pointerParams} from '../params.js'
import type {DuskFacts, DuskToolFacts, ParamRule} from '../types.js'

export const sent: ParamRule = {rule: 'sent'}
export const refused: ParamRule = {rule: 'refused'}
export const tapir = (how: string): ParamRule => ({rule: 'tapir', how})

export const SNAPSHOT_AFTER = tapir('a snap after the action, attached as snapshot (diff is refused: 0.0.1 keeps no baseline)')
export const SNAPSHOT_MODE = tapir('full and none become includeSnapshot; diff is refused (0.0.1 keeps no baseline)')
export const INCLUDE_AFTER = tapir('a snap after the action, attached as snapshot')
export const GATE = {checkStable: refused, checkReceivesEvents: refused} as const

/** The params every pointer verb has. */
export type PointerParam = ReturnType<typeof pointerParams>[number]['name']

/** A pointer verb whose 0.0.1 call takes only the ref. */
export const refOnly = (method: string, tool: DuskToolFacts<PointerParam>): DuskFacts<PointerParam> => ({
  on: 'driven',
  method,
  params: {ref: sent, snapshot: SNAPSHOT_AFTER, includeSnapshot: INCLUDE_AFTER, ...GATE},
  tool,
})

/** A pointer verb whose 0.0.1 call takes the ref, includeSnapshot and the gate checks. */
export const gatedClick = (method: string, tool: DuskToolFacts<PointerParam>): DuskFacts<PointerParam> => ({
  on: 'driven',
  method,
  params: {ref: sent, snapshot: SNAPSHOT_MODE, includeSnapshot: sent, checkStable: sent, checkReceivesEvents: sent},
  tool,
})

/** dusk_* tools default includeSnapshot to false where 0.0.1 does. */
export const NO_SNAPSHOT = ['includeSnapshot', {default: false}] as const
export const GATES = ['checkStable', 'checkReceivesEvents'] as const
