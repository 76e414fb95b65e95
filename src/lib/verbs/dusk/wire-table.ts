/**
 * What an app on Dusk 0.0.1 (`ext.dusk.*`, tapir's predecessor) gets of each verb, as data: the
 * MCP server's dusk catalogue, the README and the tests read it.
 *
 * - `driven`: the verb calls `ext.dusk.<method>`. Each of its parameters is `sent` (0.0.1 has it,
 *   under `as` when named otherwise), done by `tapir` itself around the call (`how` says what),
 *   or `refused`: 0.0.1 lacks it, so a value other than its default is refused with exit 1 and
 *   the default is simply not sent.
 * - `refused`: 0.0.1 has no such call; the verb exits 1 naming it.
 * - `unchanged`: the verb never calls into the app's package (Chrome, files, the flutter tool).
 */
export type ParamRule = {rule: 'sent'; as?: string} | {rule: 'tapir'; how: string} | {rule: 'refused'}

export type DuskWire =
  | {on: 'driven'; method: string; params: Readonly<Record<string, ParamRule>>; note?: string}
  | {on: 'refused'}
  | {on: 'unchanged'; note: string}

const sent: ParamRule = {rule: 'sent'}
const refused: ParamRule = {rule: 'refused'}
const tapir = (how: string): ParamRule => ({rule: 'tapir', how})

const SNAPSHOT_AFTER = tapir('a snap after the action, attached as snapshot (diff is refused: 0.0.1 keeps no baseline)')
const SNAPSHOT_MODE = tapir('full and none become includeSnapshot; diff is refused (0.0.1 keeps no baseline)')
const INCLUDE_AFTER = tapir('a snap after the action, attached as snapshot')
const GATE = {checkStable: refused, checkReceivesEvents: refused}
/** A pointer verb whose 0.0.1 call takes only the ref. */
const refOnly = (method: string): DuskWire => ({
  on: 'driven',
  method,
  params: {ref: sent, snapshot: SNAPSHOT_AFTER, includeSnapshot: INCLUDE_AFTER, ...GATE},
})
/** A pointer verb whose 0.0.1 call takes the ref, includeSnapshot and the gate checks. */
const gatedClick = (method: string): DuskWire => ({
  on: 'driven',
  method,
  params: {ref: sent, snapshot: SNAPSHOT_MODE, includeSnapshot: sent, checkStable: sent, checkReceivesEvents: sent},
})

/** Every verb of the catalogue, by its CLI name (test/unit/dusk-wire.test.ts keeps it whole). */
export const DUSK_WIRE: Readonly<Record<string, DuskWire>> = {
  snap: {
    on: 'driven',
    method: 'snap',
    note: 'with within, depth is cut below the within node in tapir instead of sent',
    params: {
      depth: {rule: 'sent'},
      within: tapir('the subtree under that ref, cut from the whole snapshot'),
      interactiveOnly: tapir('lines without a ref dropped from the snapshot, their children lifted'),
      grep: tapir('nodes whose label or value match kept, with their ancestors'),
      includeEnrichers: refused,
    },
  },
  observe: {on: 'driven', method: 'observe', params: {intent: sent, roles: sent, limit: sent, includeEnrichers: sent}},
  find: {on: 'driven', method: 'find', params: {text: sent, contains: sent, semanticsLabel: sent, key: sent, within: refused}},
  get_routes: {on: 'driven', method: 'get_routes', params: {}},
  console: {on: 'driven', method: 'console', params: {limit: sent, minLevel: sent}},
  exceptions: {
    on: 'driven',
    method: 'exceptions',
    params: {limit: sent, since: tapir('entries at or before that time dropped from the answer'), clear: refused},
  },
  tap: {
    on: 'driven',
    method: 'tap',
    params: {
      ref: sent,
      snapshot: SNAPSHOT_AFTER,
      includeSnapshot: INCLUDE_AFTER,
      ...GATE,
      retarget: refused,
      until: tapir('an ext.dusk.wait_for for that text after the tap, reported as untilMatched'),
      untilTimeoutMs: tapir('the timeoutMs of that wait_for'),
    },
  },
  hover: refOnly('hover'),
  dblclick: refOnly('dblclick'),
  right_click: gatedClick('right_click'),
  triple_click: gatedClick('triple_click'),
  drag: {
    on: 'driven',
    method: 'drag',
    params: {startRef: sent, endRef: sent, snapshot: SNAPSHOT_AFTER, includeSnapshot: INCLUDE_AFTER, ...GATE},
  },
  type: {
    on: 'driven',
    method: 'type',
    params: {ref: sent, text: sent, snapshot: SNAPSHOT_AFTER, includeSnapshot: INCLUDE_AFTER, ...GATE},
  },
  fill: {on: 'refused'},
  clear: {on: 'driven', method: 'clear', params: {ref: sent, includeSnapshot: sent}},
  focus: {on: 'driven', method: 'focus', params: {ref: sent, includeSnapshot: sent}},
  blur: {on: 'driven', method: 'blur', params: {includeSnapshot: sent}},
  press_key: {
    on: 'driven',
    method: 'press_key',
    params: {key: sent, modifiers: sent, snapshot: SNAPSHOT_AFTER, includeSnapshot: INCLUDE_AFTER},
  },
  scroll: {
    on: 'driven',
    method: 'scroll',
    note: '0.0.1 scrolls only around a ref: without one the call is refused',
    params: {
      ref: sent,
      direction: sent,
      pixels: sent,
      dx: refused,
      dy: refused,
      intoView: refused,
      snapshot: SNAPSHOT_AFTER,
      includeSnapshot: INCLUDE_AFTER,
    },
  },
  select_option: {on: 'driven', method: 'select_option', params: {ref: sent, value: sent}},
  set_checkbox: {on: 'driven', method: 'set_checkbox', params: {ref: sent, value: sent, includeSnapshot: INCLUDE_AFTER}},
  navigate: {on: 'driven', method: 'navigate', params: {route: sent, includeSnapshot: INCLUDE_AFTER, snapshot: SNAPSHOT_AFTER}},
  navigate_back: {on: 'driven', method: 'navigate_back', params: {includeSnapshot: INCLUDE_AFTER, snapshot: SNAPSHOT_AFTER}},
  dismiss_modals: {on: 'driven', method: 'dismiss_modals', params: {}},
  reset_overlays: {on: 'refused'},
  close_app: {on: 'driven', method: 'close_app', params: {}},
  wait: {
    on: 'driven',
    method: 'wait_for',
    note: '0.0.1 takes exactly one condition; its timeout error exits 1, as matched: false does',
    params: {text: sent, textGone: sent, expression: {rule: 'sent', as: 'text'}, timeoutMs: sent},
  },
  wait_for_network_idle: {
    on: 'driven',
    method: 'wait_for_network_idle',
    note: "0.0.1's timeout envelope exits 1, as tapir's does",
    params: {timeoutMs: sent, idleMs: sent, pollIntervalMs: sent},
  },
  evaluate: {on: 'driven', method: 'evaluate', note: "through 0.0.1's Tinker bridge, not the VM's evaluate", params: {expression: sent}},
  screenshot: {
    on: 'driven',
    method: 'screenshot',
    params: {format: sent, quality: sent, ref: refused, rect: refused, output: tapir('the image written to that file')},
  },
  expect: {on: 'refused'},
  perf_begin: {on: 'refused'},
  perf_end: {on: 'refused'},
  perf_insight: {on: 'refused'},
  perf_trace: {on: 'refused'},
  perf_run: {on: 'refused'},
  perf_campaign: {on: 'refused'},
  perf_compare: {on: 'unchanged', note: 'compares two report files; the app is not asked'},
  resize: {on: 'unchanged', note: 'Chrome through CDP, as for a tapir app'},
  device: {on: 'unchanged', note: 'Chrome through CDP, as for a tapir app'},
  hot_reload_and_snap: {
    on: 'unchanged',
    note: 'the flutter tool reloads; the snapshot, screenshot and exceptions come from ext.dusk.*',
  },
}
