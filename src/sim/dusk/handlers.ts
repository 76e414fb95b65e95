// Dusk 0.0.1's extensions (`ext.dusk.*`, tapir's predecessor), answered from the same app model
// as tapir's: each takes 0.0.1's params and answers in 0.0.1's shapes (its tool reference).
import {ExtensionError, type AppValue, type SimApp} from '../app-contract.js'
import {DuskParams, duskError} from './dusk-params.js'

type DuskHandler = (app: SimApp, params: DuskParams) => Promise<Record<string, unknown>>

interface DuskMethod {
  /** The params 0.0.1 reads; anything else a client sends is a contract violation. */
  readonly params: readonly string[]
  readonly run: DuskHandler
}

const WAIT_POLL_MS = 100

/** Runs a tapir handler of the model with the params given; its errors speak of ext.dusk.*. */
async function model(app: SimApp, method: string, params: Record<string, string>): Promise<Record<string, unknown>> {
  try {
    return await app.call(method, params)
  } catch (error) {
    if (error instanceof ExtensionError) throw new ExtensionError(error.code, error.details.replaceAll('ext.tapir.', 'ext.dusk.'))
    throw error
  }
}

/** An action with no snapshot: 0.0.1's tap, hover, drag, ... embed none. */
const quiet = {includeSnapshot: 'false', snapshot: 'none'}
/** 0.0.1's includeSnapshot, false unless given. */
const snapshotAsked = (params: DuskParams) => ({includeSnapshot: params.optional('includeSnapshot') ?? 'false'})
const withSnapshot = (answer: Record<string, unknown>, own: Record<string, unknown>) =>
  typeof answer.snapshot === 'string' ? {...own, snapshot: answer.snapshot} : own

const refAction =
  (method: string): DuskHandler =>
  async (app, params) => {
    const ref = params.required('ref')
    await model(app, method, {ref, ...quiet})
    return {ref}
  }

const gatedClick =
  (method: string): DuskHandler =>
  async (app, params) => {
    const ref = params.required('ref')
    const answer = await model(app, method, {ref, ...params.pick('checkStable', 'checkReceivesEvents'), ...snapshotAsked(params)})
    return withSnapshot(answer, {ref})
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function waitFor(app: SimApp, params: DuskParams): Promise<Record<string, unknown>> {
  const conditions = ['text', 'textGone', 'expression'].filter((name) => params.optional(name) !== undefined)
  if (conditions.length !== 1)
    throw duskError('[fluttersdk_dusk] ext.dusk.wait_for: pass exactly one of text, textGone, expression', 'missing_param')
  const timeoutMs = params.int('timeoutMs', 5000)
  const started = Date.now()
  const expression = params.optional('expression')
  if (expression !== undefined) {
    for (;;) {
      if (evaluateText(app, expression) === 'true') return {matched: true, waitedMs: Date.now() - started}
      if (Date.now() - started >= timeoutMs) break
      await sleep(WAIT_POLL_MS)
    }
  } else {
    const answer = await model(app, 'wait_for', {...params.pick('text', 'textGone'), timeoutMs: String(timeoutMs)})
    if (answer.matched === true)
      return {matched: true, waitedMs: typeof answer.elapsedMs === 'number' ? answer.elapsedMs : Date.now() - started}
  }
  throw duskError(`[fluttersdk_dusk] ext.dusk.wait_for: timed out after ${timeoutMs}ms waiting for ${conditions[0]}`, 'timeout')
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
  dblclick: {params: ['ref'], run: refAction('dblclick')},
  dismiss_modals: {params: [], run: async (app) => ({popped: (await model(app, 'dismiss_modals', {})).popped ?? 0})},
  drag: {
    params: ['startRef', 'endRef'],
    run: async (app, params) => {
      const startRef = params.required('startRef')
      const endRef = params.required('endRef')
      await model(app, 'drag', {startRef, endRef, ...quiet})
      return {startRef, endRef}
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
  // A Router app declares no MagicRouter routes: 0.0.1 answers an empty list.
  get_routes: {params: [], run: async () => ({routes: []})},
  hover: {params: ['ref'], run: refAction('hover')},
  navigate: {
    params: ['route'],
    run: async (app, params) => {
      const route = params.required('route')
      await model(app, 'navigate', {route, ...quiet})
      return {route}
    },
  },
  navigate_back: {params: [], run: async (app) => ({popped: (await model(app, 'navigate_back', quiet)).popped !== false})},
  observe: {
    params: ['intent', 'roles', 'limit', 'includeEnrichers'],
    run: async (app, params) => ({
      candidates: entries(await model(app, 'observe', params.pick('intent', 'roles', 'limit', 'includeEnrichers')), 'candidates'),
    }),
  },
  press_key: {
    params: ['key', 'modifiers'],
    run: async (app, params) => {
      const key = params.required('key')
      await model(app, 'press_key', {key, ...params.pick('modifiers'), ...quiet})
      return {ok: true, key}
    },
  },
  right_click: {params: ['ref', 'includeSnapshot', 'checkStable', 'checkReceivesEvents'], run: gatedClick('right_click')},
  screenshot: {
    params: ['format', 'quality'],
    run: async (app, params) => {
      const format = params.optional('format') ?? 'png'
      const answer = await model(app, 'screenshot', {format, quality: String(params.int('quality', 80))})
      return {format, bytes: answer.base64}
    },
  },
  scroll: {
    params: ['ref', 'direction', 'pixels'],
    run: async (app, params) => {
      const ref = params.required('ref')
      const direction = params.optional('direction') ?? 'down'
      const pixels = Number(params.optional('pixels') ?? 300)
      await model(app, 'scroll', {ref, direction, pixels: String(pixels), ...quiet})
      return {ref, direction, pixels}
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
  tap: {params: ['ref'], run: refAction('tap')},
  triple_click: {params: ['ref', 'includeSnapshot', 'checkStable', 'checkReceivesEvents'], run: gatedClick('triple_click')},
  type: {
    params: ['ref', 'text'],
    run: async (app, params) => {
      const ref = params.required('ref')
      const text = params.optional('text') ?? ''
      await model(app, 'type', {ref, text, ...quiet})
      return {ref, text}
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
