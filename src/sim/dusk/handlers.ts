// Dusk 0.0.1's extensions (`ext.dusk.*`, tapir's predecessor), answered from the same app model
// as tapir's. Each reads the `params[...]` its 0.0.1 handler reads and answers in that handler's
// shape (fluttersdk/dusk tag 0.0.1, lib/src/extensions/: the file is named on each method below).
import {ExtensionError, type AppValue, type SimApp} from '../app-contract.js'
import {DuskParams, duskError} from './dusk-params.js'

type DuskHandler = (app: SimApp, params: DuskParams) => Promise<Record<string, unknown>>

interface DuskMethod {
  /** The params 0.0.1 reads; anything else a client sends is a contract violation. */
  readonly params: readonly string[]
  readonly run: DuskHandler
}

/** Runs a tapir handler of the model with the params given; its errors speak of ext.dusk.*. */
async function model(app: SimApp, method: string, params: Record<string, string>): Promise<Record<string, unknown>> {
  try {
    return await app.call(method, params)
  } catch (error) {
    if (error instanceof ExtensionError) throw new ExtensionError(error.code, error.details.replaceAll('ext.tapir.', 'ext.dusk.'))
    throw error
  }
}

/** ext_navigation.dart's reason when the Router's URI did not follow the route. */
const NOT_HONOURED = 'router did not honor the new route; observed URI did not change. Route may be unregistered or guarded by a redirect.'
/** `_appendSnapshotIfRequested` in ext_navigation.dart, ext_scroll.dart, ext_pointer.dart: true unless given. */
const snapshotByDefault = (params: DuskParams) => ({includeSnapshot: String(params.bool('includeSnapshot', true))})
/** 0.0.1's includeSnapshot, false unless given. */
const snapshotAsked = (params: DuskParams) => ({includeSnapshot: params.optional('includeSnapshot') ?? 'false'})
const withSnapshot = (answer: Record<string, unknown>, own: Record<string, unknown>) =>
  typeof answer.snapshot === 'string' ? {...own, snapshot: answer.snapshot} : own

/** ext_pointer.dart's handlers: the ref, the two gate checks (each true unless given) and the
 *  snapshot after (true unless given); `own` is what the handler answers besides the snapshot. */
const gatedClick =
  (method: string, own: (ref: string) => Record<string, unknown> = (ref) => ({ref})): DuskHandler =>
  async (app, params) => {
    const ref = params.required('ref')
    const answer = await model(app, method, {ref, ...params.pick('checkStable', 'checkReceivesEvents'), ...snapshotByDefault(params)})
    return withSnapshot(answer, own(ref))
  }

function valueText(value: AppValue): string {
  switch (value.type) {
    case 'Null':
      return 'null'
    case 'List':
      return `Instance of 'List<${value.elementType}>'`
    case 'object':
      return value.text
    case 'Type':
      return value.name
    case 'Closure':
      return value.text
    default:
      return String(value.value)
  }
}

/** The Tinker bridge: a Dart expression evaluated in the app. */
function evaluateText(app: SimApp, expression: string): string {
  const reply = app.evaluate(expression)
  if (reply.kind === 'thrown') throw duskError(`[fluttersdk_dusk] ext.dusk.evaluate: ${reply.exception}`, 'unexpected')
  if (reply.kind === 'compileError') throw duskError(`[fluttersdk_dusk] ext.dusk.evaluate: ${reply.details.split('\n')[0]}`, 'unexpected')
  return valueText(reply.value)
}

/** ext_wait_find.dart `aiTestWaitForHandler`: text wins over textGone, and `expression` is matched
 *  as text (it is never evaluated); a timeout is a result, `{matched: false, reason: 'timeout'}`. */
async function waitFor(app: SimApp, params: DuskParams): Promise<Record<string, unknown>> {
  if (['text', 'textGone', 'expression'].every((name) => !params.given(name)))
    throw duskError('[fluttersdk_dusk] ext.dusk.wait_for: at least one of text, textGone, or expression is required', 'missing_param')
  const answer = await model(app, 'wait_for', {
    ...params.pick('text', 'textGone', 'expression'),
    timeoutMs: String(params.int('timeoutMs', 5000)),
  })
  return answer.matched === true ? {matched: true, elapsedMs: answer.elapsedMs} : {matched: false, reason: 'timeout'}
}

const entries = (answer: Record<string, unknown>, key: string): unknown[] => (Array.isArray(answer[key]) ? answer[key] : [])

export const DUSK_METHODS: Readonly<Record<string, DuskMethod>> = {
  blur: {
    params: ['includeSnapshot'],
    run: async (app, params) => {
      const answer = await model(app, 'blur', snapshotAsked(params))
      return withSnapshot(answer, {blurred: true, hadFocus: answer.hadFocus === true})
    },
  },
  clear: {
    params: ['ref', 'includeSnapshot'],
    run: async (app, params) => {
      const ref = params.required('ref')
      return withSnapshot(await model(app, 'clear', {ref, ...snapshotAsked(params)}), {ref, text: ''})
    },
  },
  close_app: {params: [], run: async (app) => (await model(app, 'close_app', {}), {})},
  console: {
    params: ['limit', 'minLevel'],
    run: async (app, params) => ({
      entries: entries(await model(app, 'console', params.pick('limit', 'minLevel')), 'logs').map((entry) => {
        const {level, message, time, logger} = entry as Record<string, unknown>
        return {level, message, time, logger}
      }),
    }),
  },
  dblclick: {params: ['ref', 'checkStable', 'checkReceivesEvents', 'includeSnapshot'], run: gatedClick('dblclick')},
  dismiss_modals: {params: [], run: async (app) => ({popped: (await model(app, 'dismiss_modals', {})).popped ?? 0})},
  drag: {
    params: ['startRef', 'endRef', 'checkStable', 'checkReceivesEvents', 'includeSnapshot'],
    run: async (app, params) => {
      const startRef = params.required('startRef')
      const endRef = params.required('endRef')
      const gate = params.pick('checkStable', 'checkReceivesEvents')
      return withSnapshot(await model(app, 'drag', {startRef, endRef, ...gate, ...snapshotByDefault(params)}), {startRef, endRef})
    },
  },
  evaluate: {params: ['expression'], run: async (app, params) => ({result: evaluateText(app, params.required('expression'))})},
  exceptions: {
    params: ['limit'],
    run: async (app, params) => ({
      entries: entries(await model(app, 'exceptions', {limit: String(params.int('limit', 20))}), 'exceptions').map((entry) => {
        const {type, message, stackHead, time} = entry as Record<string, unknown>
        return {type, message, stackHead, time}
      }),
    }),
  },
  find: {
    params: ['text', 'contains', 'semanticsLabel', 'key'],
    run: async (app, params) => {
      const answer = await model(app, 'find', params.pick('text', 'contains', 'semanticsLabel', 'key'))
      return answer.matched === true ? {ref: answer.ref, matched: true} : {ref: null, matched: false}
    },
  },
  focus: {
    params: ['ref', 'includeSnapshot'],
    run: async (app, params) => {
      const ref = params.required('ref')
      return withSnapshot(await model(app, 'focus', {ref, ...snapshotAsked(params)}), {ref, focused: true})
    },
  },
  // ext_navigation.dart `buildGetRoutesResponse`: the top route's name on the first Navigator, and
  // the platform's default route name unless it is "/"; each '' when there is none.
  get_routes: {
    params: [],
    run: async (app) => {
      const {location, title} = await model(app, 'get_routes', {})
      return {location: typeof location === 'string' ? location : '', title: typeof title === 'string' ? title : ''}
    },
  },
  find_by_text: {
    params: ['text', 'exact'],
    // ext_wait_find.dart `aiTestFindByTextHandler`: a ref for every Text whose data is `text` (contains it with exact=false).
    run: async (app, params) => ({refs: (await model(app, 'find_by_text', {text: params.required('text'), ...params.pick('exact')})).refs}),
  },
  find_by_label: {
    params: ['label', 'role'],
    // ext_wait_find.dart `aiTestFindByLabelHandler`: a ref for every semantics node labelled `label`, of `role` if given.
    run: async (app, params) => ({
      refs: (await model(app, 'find_by_label', {label: params.required('label'), ...params.pick('role')})).refs,
    }),
  },
  hover: {params: ['ref', 'checkStable', 'checkReceivesEvents', 'includeSnapshot'], run: gatedClick('hover')},
  // ext_navigation.dart `extDuskNavigateHandler`: navigated is whether the Router's URI now lies at or under the route.
  navigate: {
    params: ['route', 'includeSnapshot'],
    run: async (app, params) => {
      const route = params.required('route')
      const answer = await model(app, 'navigate', {route, ...snapshotByDefault(params)})
      return withSnapshot(answer, answer.navigated === false ? {navigated: false, route, reason: NOT_HONOURED} : {navigated: true, route})
    },
  },
  // ext_navigation.dart `extDuskNavigateBackHandler`: pops when the first Navigator can, and says navigatedBack either way.
  navigate_back: {
    params: ['includeSnapshot'],
    run: async (app, params) => withSnapshot(await model(app, 'navigate_back', snapshotByDefault(params)), {navigatedBack: true}),
  },
  observe: {
    params: ['intent', 'roles', 'limit', 'includeEnrichers'],
    run: async (app, params) => ({
      candidates: entries(await model(app, 'observe', params.pick('intent', 'roles', 'limit', 'includeEnrichers')), 'candidates'),
    }),
  },
  press_key: {
    params: ['key', 'modifiers', 'includeSnapshot'],
    run: async (app, params) => {
      const key = params.required('key')
      return withSnapshot(await model(app, 'press_key', {key, ...params.pick('modifiers'), ...snapshotByDefault(params)}), {ok: true, key})
    },
  },
  right_click: {
    params: ['ref', 'checkStable', 'checkReceivesEvents', 'includeSnapshot'],
    run: gatedClick('right_click', (ref) => ({ref, button: 'right'})),
  },
  screenshot: {
    params: ['format', 'quality'],
    run: async (app, params) => {
      const format = params.optional('format') ?? 'png'
      const answer = await model(app, 'screenshot', {format, quality: String(params.int('quality', 80))})
      return {format, bytes: answer.base64}
    },
  },
  // ext_scroll.dart `aiTestScrollHandler`: with intoView and a ref, ensureVisible; otherwise the
  // Scrollable at, around or inside the ref (the first one without it) jumps by dy + dx, each 0
  // when absent. It answers scrolled: true whatever moved.
  scroll: {
    params: ['ref', 'dy', 'dx', 'intoView', 'includeSnapshot'],
    run: async (app, params) => {
      const ref = params.optional('ref')
      const intoView = params.optional('intoView') === 'true' || params.optional('intoView') === '1'
      const move: Record<string, string> =
        intoView && ref !== undefined
          ? {ref, intoView: 'true'}
          : {...(ref === undefined ? {} : {ref}), dx: '0', dy: String(params.double('dy') + params.double('dx'))}
      try {
        const answer = await model(app, 'scroll', {...move, ...snapshotByDefault(params)})
        return withSnapshot(answer, {scrolled: true, finalOffset: typeof answer.finalOffset === 'number' ? answer.finalOffset : 0})
      } catch (error) {
        if (error instanceof ExtensionError && error.details.includes('no laid-out Scrollable'))
          throw duskError('No scrollable found in the widget tree.', 'not_found')
        throw error
      }
    },
  },
  select_option: {
    params: ['ref', 'value'],
    run: async (app, params) => {
      const ref = params.required('ref')
      const value = params.required('value')
      await model(app, 'select_option', {ref, value})
      return {ref, value}
    },
  },
  set_checkbox: {
    params: ['ref', 'value'],
    run: async (app, params) => {
      const ref = params.required('ref')
      const answer = await model(app, 'set_checkbox', {ref, value: params.required('value'), includeSnapshot: 'false'})
      return {ref, previousValue: answer.previousValue, value: answer.value, toggled: answer.toggled === true}
    },
  },
  snap: {
    params: ['depth'],
    run: async (app, params) => {
      const answer = await model(app, 'snap', params.pick('depth'))
      return {snapshot: answer.snapshot, groupId: answer.groupId}
    },
  },
  tap: {params: ['ref', 'checkStable', 'checkReceivesEvents', 'includeSnapshot'], run: gatedClick('tap')},
  triple_click: {
    params: ['ref', 'checkStable', 'checkReceivesEvents', 'includeSnapshot'],
    run: gatedClick('triple_click', (ref) => ({ref, clickCount: 3})),
  },
  // ext_text_input.dart `aiTestTypeHandler`: answers the text, not the ref.
  type: {
    params: ['ref', 'text', 'checkStable', 'checkReceivesEvents', 'includeSnapshot'],
    run: async (app, params) => {
      const text = params.optional('text') ?? ''
      const gate = params.pick('checkStable', 'checkReceivesEvents')
      return withSnapshot(await model(app, 'type', {ref: params.required('ref'), text, ...gate, ...snapshotByDefault(params)}), {text})
    },
  },
  wait_for: {params: ['text', 'textGone', 'expression', 'timeoutMs'], run: waitFor},
  wait_for_network_idle: {
    params: ['timeoutMs', 'idleMs', 'pollIntervalMs'],
    run: async (app, params) => {
      const answer = await model(app, 'wait_for_network_idle', params.pick('timeoutMs', 'idleMs', 'pollIntervalMs'))
      return {matched: answer.matched, idleAchievedMs: answer.idleAchievedMs}
    },
  },
}

/** Every `ext.dusk.*` method 0.0.1 registers. */
export const DUSK_EXTENSIONS: readonly string[] = Object.keys(DUSK_METHODS).map((name) => `ext.dusk.${name}`)

/** Runs `ext.dusk.<name>`; params 0.0.1 does not read are reported to `violation` (a real app ignores them). */
export function callDusk(
  app: SimApp,
  name: string,
  params: Record<string, string>,
  violation: (text: string) => void,
): Promise<Record<string, unknown>> {
  const method = DUSK_METHODS[name]
  if (!method) throw duskError(`[fluttersdk_dusk] no handler for ext.dusk.${name}`, 'unexpected')
  for (const key of Object.keys(params)) {
    if (key !== 'isolateId' && !method.params.includes(key)) violation(`ext.dusk.${name}: param "${key}" is not one Dusk 0.0.1 reads`)
  }
  return method.run(app, new DuskParams(name, params))
}
