import {MAX_TIMEOUT_MS} from '../vm/deadline.js'
import type {Param} from './types.js'

/** The one wording tools/list gives each parameter many tools share. */
export const BRIEF = {
  ref: 'eN or qN.',
  snapshot: 'Overrides includeSnapshot.',
  checkStable: 'Refuse if moving.',
  checkReceivesEvents: 'Refuse if covered.',
  timeoutMs: 'Give up after this many ms.',
} as const

type Required<N extends string, T extends Param['type']> = Param<N, T> & {required: true}

export function ref(
  description = 'Ref of the widget: an eN from tapir:snap or a qN from tapir:find / tapir:observe.',
): Required<'ref', 'string'> {
  return namedRef('ref', description)
}

/** A required ref under another name (drag's startRef and endRef). */
export function namedRef<N extends string>(name: N, description: string): Required<N, 'string'> {
  return {
    name,
    type: 'string',
    required: true,
    widgetRef: true,
    description,
    brief: BRIEF.ref,
    missing: `Missing --${name}=<eN>. Run tapir:snap first to obtain refs.`,
  }
}

/** `snapshot`: the app decides when it is not given (tap documents `full` as its default). */
export function snapshotMode(appDefault?: string): Param<'snapshot', 'string'> {
  return {
    name: 'snapshot',
    type: 'string',
    replyOnly: true,
    options: ['full', 'diff', 'none'],
    ...(appDefault ? {default: appDefault, defaultInApp: true} : {}),
    brief: BRIEF.snapshot,
    description:
      'Snapshot to return after the action: full, diff (only the lines that changed since the last unfiltered snapshot) or none. Wins over includeSnapshot.',
  }
}

/** `includeSnapshot`: the spec's default, while the CLI keeps the original's `false` so a plain
 *  call prints its one-line summary. */
export function includeSnapshot(specDefault: boolean): Param<'includeSnapshot', 'boolean'> {
  return {
    name: 'includeSnapshot',
    type: 'boolean',
    replyOnly: true,
    default: specDefault,
    cliDefault: false,
    // Its name and default say it all to an agent: no brief, to keep the tool list short.
    description: `Return the snapshot taken after the action (MCP default ${specDefault}; the CLI prints the JSON when set).`,
  }
}

export function gateChecks(): [Param<'checkStable', 'boolean'>, Param<'checkReceivesEvents', 'boolean'>] {
  return [
    {
      name: 'checkStable',
      type: 'boolean',
      default: true,
      brief: BRIEF.checkStable,
      description: 'Refuse when the widget is still moving (the Stable step of the actionability gate).',
    },
    {
      name: 'checkReceivesEvents',
      type: 'boolean',
      default: true,
      brief: BRIEF.checkReceivesEvents,
      description: 'Refuse when something painted above the widget would take the pointer (the Receives-Events step).',
    },
  ]
}

/** The params every pointer verb (tap, hover, dblclick, ...) shares. */
export function pointerParams(snapshotDefault?: string) {
  return [ref(), snapshotMode(snapshotDefault), includeSnapshot(true), ...gateChecks()] as const
}

/** `timeoutMs` of a verb that waits in the app for a condition: 5 s unless given. */
export function waitTimeout(): Param<'timeoutMs', 'integer'> & {default: number} {
  return {
    name: 'timeoutMs',
    type: 'integer',
    default: 5000,
    minimum: 0,
    maximum: MAX_TIMEOUT_MS,
    description: 'Give up after this many milliseconds.',
  }
}
