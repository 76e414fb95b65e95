/** The rules a verb's `dusk` facts are written with; their types are in ../types.ts. */
import type {pointerParams} from '../params.js'
import type {DuskFacts, DuskToolFacts, ParamRule} from '../types.js'

export const sent: ParamRule = {rule: 'sent'}
export const refused: ParamRule = {rule: 'refused'}
export const tapir = (how: string): ParamRule => ({rule: 'tapir', how})

export const SNAPSHOT_MODE = tapir('full and none become includeSnapshot; diff is refused (0.0.1 keeps no baseline)')
export const INCLUDE_AFTER = tapir('a snap after the action, attached as snapshot')
/** scroll's direction and pixels: 0.0.1's handler reads only dy and dx (ext_scroll.dart), so they
 *  become one signed delta, as Dusk's own CLI makes them (dusk_scroll_command.dart). */
export const DY_DX = tapir("sent as dy (down, up) or dx (right, left) when neither dy nor dx is given, as Dusk's CLI does")

/** The params every pointer verb has. */
export type PointerParam = ReturnType<typeof pointerParams>[number]['name']

/** A pointer verb: 0.0.1's ext_pointer.dart handlers read the ref, includeSnapshot and the gate checks. */
export const gatedClick = (method: string, tool: DuskToolFacts<PointerParam>): DuskFacts<PointerParam> => ({
  on: 'driven',
  method,
  params: {ref: sent, snapshot: SNAPSHOT_MODE, includeSnapshot: sent, checkStable: sent, checkReceivesEvents: sent},
  tool,
})

/** dusk_* tools default includeSnapshot to false where 0.0.1 does. */
export const NO_SNAPSHOT = ['includeSnapshot', {default: false}] as const
export const GATES = ['checkStable', 'checkReceivesEvents'] as const
