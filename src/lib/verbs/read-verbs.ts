import {ParamError} from '../errors.js'
import {integer, list, object, optional, string, type Infer} from '../shape.js'
import {answer, exceptionsAnswer, findAnswer, observeAnswer, routesAnswer} from '../vm/tapir-answers.js'
import {refused, sent, tapir} from './dusk/facts.js'
import {extensionVerb} from './extension-verb.js'
import {ambiguousFind, nearestToFind} from './find-report.js'
import {toExtensionParams} from './input.js'
import type {Verb} from './types.js'

export const snap = extensionVerb({
  name: 'snap',
  tool: 'tapir_snap',
  title: 'Snapshot the screen',
  summary: 'Read the screen as a YAML Semantics tree, each actionable widget tagged [ref=eN]. Start here.',
  example: '--interactiveOnly',
  kind: 'read',
  dusk: {
    on: 'driven',
    method: 'snap',
    note: 'with within, depth is cut below the within node in tapir instead of sent',
    params: {
      depth: sent,
      within: tapir('the subtree under that ref, cut from the whole snapshot'),
      interactiveOnly: tapir('lines without a ref dropped from the snapshot, their children lifted'),
      grep: tapir('nodes whose label or value match kept, with their ancestors'),
      includeEnrichers: refused,
    },
    tool: {
      tool: 'dusk_snap',
      summary: 'Read the screen as a YAML tree with a [ref=eN] on every widget you can act on. Call it before acting.',
      params: ['depth'],
      text: (result) => String(result.snapshot ?? ''),
    },
  },
  step: 'any',
  record: {as: 'read'},
  params: [
    {
      name: 'depth',
      brief: 'Levels below the root to read.',
      type: 'integer',
      minimum: 0,
      description: 'Stop the walk this many levels below the root (whole tree when omitted).',
    },
    {
      name: 'within',
      brief: 'Only the subtree under this eN ref.',
      type: 'string',
      widgetRef: true,
      description: 'Read only the subtree under this eN ref (qN handles are not accepted; an unknown ref is an error).',
    },
    {
      name: 'interactiveOnly',
      brief: 'Only the lines that carry a ref.',
      type: 'boolean',
      default: false,
      description: 'Keep only the lines that carry a ref; drop plain text.',
    },
    {name: 'includeEnrichers', type: 'boolean', default: false, description: 'Add the Magic and Wind enricher lines under each ref.'},
    {
      name: 'grep',
      brief: 'Regex on label or value; keeps matches and their ancestors.',
      type: 'string',
      description:
        'Keep nodes whose label or value matches this regular expression, with their ancestors (an invalid pattern matches literally).',
    },
  ],
  result: answer({snapshot: string, groupId: optional(string)}),
  report: (result) => ({stdout: result.snapshot.replace(/\n$/, '')}),
})

export const observe = extensionVerb({
  name: 'observe',
  tool: 'tapir_observe',
  title: 'Observe interactive widgets',
  summary: 'List the interactive widgets on screen as JSON, each with a qN ref, to pick a target from.',
  example: '--roles=button,textbox --limit=20',
  kind: 'read',
  dusk: {
    on: 'driven',
    method: 'observe',
    params: {intent: sent, roles: sent, limit: sent, includeEnrichers: sent},
    tool: {
      tool: 'dusk_observe',
      summary: 'List the widgets on screen an agent can act on, each with a qN ref, optionally only some roles.',
      params: ['intent', 'roles', 'limit', 'includeEnrichers'],
    },
  },
  step: 'any',
  record: {as: 'read'},
  params: [
    // Passed through to the app as typed on the CLI (the observe command page): the app answers for them.
    {
      name: 'intent',
      brief: 'What you look for; only logged.',
      type: 'string',
      passThrough: true,
      description: 'What you are looking for, in words; only logged, never used to filter.',
    },
    {
      name: 'roles',
      brief: 'Comma-separated roles to keep, e.g. button,textbox.',
      type: 'string',
      passThrough: true,
      description: 'Comma-separated roles to keep (button,textbox,link,checkbox,heading,image); all when omitted.',
    },
    {
      name: 'limit',
      type: 'integer',
      default: 50,
      defaultInApp: true,
      passThrough: true,
      minimum: 1,
      description: 'Return at most this many candidates (the app takes 50 when omitted).',
    },
    {
      name: 'includeEnrichers',
      type: 'string',
      default: 'true',
      defaultInApp: true,
      passThrough: true,
      options: ['true', 'false', 'full'],
      description: "Enricher fields per candidate: true (the usual subset, the app's default), false (none) or full (all).",
    },
  ],
  result: observeAnswer,
})

/** What find can look for; a call gives at least one. */
type FindAnswer = Infer<typeof findAnswer>

const FIND_PREDICATES = [
  {
    name: 'text',
    brief: 'Exact label, else exact Text data.',
    type: 'string',
    description: 'Exact accessibility label, else exact Text data.',
  },
  {
    name: 'contains',
    brief: 'Substring of the label or Text data.',
    type: 'string',
    description: 'Case-sensitive substring of the label or Text data, for dynamic labels.',
  },
  {
    name: 'semanticsLabel',
    brief: 'Exact Semantics label only.',
    type: 'string',
    description: 'Exact SemanticsNode label only (no Text fallback).',
  },
  {name: 'key', brief: 'The Key of the widget, as text.', type: 'string', description: "The widget's Key (a ValueKey's value as text)."},
] as const

export const find = extensionVerb({
  name: 'find',
  tool: 'tapir_find',
  title: 'Find a widget',
  summary: 'Find a widget by text, label or key; its qN ref re-resolves on every later action.',
  example: '--text="Sign in"',
  kind: 'read',
  dusk: {
    on: 'driven',
    method: 'find',
    params: {text: sent, contains: sent, semanticsLabel: sent, key: sent, within: refused},
    tool: {
      tool: 'dusk_find',
      summary: 'Look a widget up by text, substring, Semantics label or key; its qN ref is looked up again on every later action.',
      params: ['text', 'contains', 'semanticsLabel', 'key'],
    },
  },
  step: 'any',
  record: {as: 'read'},
  params: [
    ...FIND_PREDICATES,
    {
      name: 'within',
      brief: 'Search only under this eN ref.',
      type: 'string',
      widgetRef: true,
      description: 'Search only under this eN ref; the scope stays part of the handle.',
    },
  ],
  validate(input) {
    if (!FIND_PREDICATES.some(({name}) => typeof input[name] === 'string' && input[name] !== '')) {
      throw new ParamError((name) => `Provide at least one of ${FIND_PREDICATES.map((predicate) => name(predicate.name)).join(' / ')}.`)
    }
  },
  result: findAnswer,
  // Over MCP an ambiguous find says what it picked and what else matched, and a find that
  // matched nothing the nearest widgets. Both read the app's widgets once more through observe,
  // which mints a qN per candidate, so the CLI keeps the Dart CLI's answer and handle numbers.
  async execute(call, input): Promise<FindAnswer> {
    const app = await call.app()
    const result = await app.callExtension('find', toExtensionParams(find.params, input), findAnswer, call.deadline)
    if (call.origin !== 'mcp') return result
    const ambiguous = result.matched && typeof result.matchCount === 'number' && result.matchCount > 1
    try {
      if (ambiguous && typeof result.ref === 'string') return {...result, ...(await ambiguousFind(app, result.ref, input, call.deadline))}
      if (!result.matched) return {...result, ...(await nearestToFind(app, input, call.deadline))}
    } catch {
      // the app cannot say more: its own answer stands
    }
    return result
  },
  report: (result) => ({stdout: JSON.stringify(result, null, 2)}),
})

export const getRoutes = extensionVerb({
  name: 'get_routes',
  tool: 'tapir_get_routes',
  title: 'Get the current route',
  summary: "Say where the app is: the Router's location, top page, title hint.",
  kind: 'read',
  dusk: {on: 'driven', method: 'get_routes', params: {}, tool: {tool: 'dusk_get_routes', summary: 'Say which route the app shows.'}},
  step: 'any',
  record: {as: 'nothing'},
  params: [],
  result: routesAnswer,
})

export const consoleLogs = extensionVerb({
  name: 'console',
  tool: 'tapir_console',
  title: 'Read console logs',
  summary: "Read the app's recent log entries (debugPrint, and crumbs when wired), newest first.",
  example: '--limit=10 --minLevel=WARNING',
  kind: 'read',
  dusk: {
    on: 'driven',
    method: 'console',
    params: {limit: sent, minLevel: sent},
    tool: {
      tool: 'dusk_console',
      summary: "Read the app's latest log entries, optionally from a minimum level up.",
      params: ['limit', 'minLevel'],
      renamed: {logs: 'entries'},
    },
  },
  step: 'any',
  record: {as: 'nothing'},
  params: [
    {name: 'limit', type: 'integer', default: 50, minimum: 0, description: 'Return at most this many entries.'},
    {name: 'minLevel', type: 'string', options: ['INFO', 'WARNING', 'ERROR'], description: 'Leave out entries below this level.'},
  ],
  result: answer({logs: list(object({})), count: optional(integer)}),
})

export const exceptions = extensionVerb({
  name: 'exceptions',
  tool: 'tapir_exceptions',
  title: 'Read exceptions',
  summary: "Read the app's recorded exceptions and FlutterErrors (overflows too), newest first.",
  example: '--since=2026-01-01T10:00:00.000Z --clear',
  kind: 'read',
  dusk: {
    on: 'driven',
    method: 'exceptions',
    params: {limit: sent, since: tapir('entries at or before that time dropped from the answer'), clear: refused},
    tool: {
      tool: 'dusk_exceptions',
      summary: 'Read the exceptions the app recorded lately, newest first.',
      params: ['limit'],
      renamed: {exceptions: 'entries'},
    },
  },
  step: 'any',
  record: {as: 'nothing'},
  params: [
    {name: 'limit', type: 'integer', default: 20, minimum: 0, description: 'Return at most this many entries.'},
    {
      name: 'since',
      brief: 'ISO-8601 time; only later entries.',
      type: 'string',
      description: 'Only entries strictly after this ISO-8601 time (an unparseable value is ignored).',
    },
    {
      name: 'clear',
      brief: 'Empty the buffer after reading.',
      type: 'boolean',
      description: 'Empty the capture buffer after reading it, so the next read is a delta.',
    },
  ],
  result: exceptionsAnswer,
})

export const readVerbs: Verb[] = [snap, observe, find, getRoutes, consoleLogs, exceptions]
