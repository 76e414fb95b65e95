import {ParamError} from '../errors.js'
import {boolean, integer, optional, string} from '../shape.js'
import {answer} from '../vm/tapir-answers.js'
import {done, snapshotAsked} from './action-report.js'
import {sent, SNAPSHOT_MODE} from './dusk/facts.js'
import {extensionVerb} from './extension-verb.js'
import {includeSnapshot, snapshotMode} from './params.js'
import type {Verb} from './types.js'

export const navigate = extensionVerb({
  name: 'navigate',
  tool: 'tapir_navigate',
  title: 'Navigate to a route',
  summary: 'Go to a route path and check the Router landed there; refs from earlier snapshots go stale.',
  example: '--route=/monitors/7',
  kind: 'set',
  dusk: {
    on: 'driven',
    method: 'navigate',
    params: {route: sent, includeSnapshot: sent, snapshot: SNAPSHOT_MODE},
    tool: {
      tool: 'dusk_navigate',
      summary: 'Go to a route path such as /settings; snap again afterwards, since old refs are gone.',
      params: ['route'],
      echoed: ['route'],
    },
  },
  step: 'any',
  record: {as: 'step'},
  params: [
    {
      name: 'route',
      brief: 'Path starting with /, e.g. /monitors/123.',
      type: 'string',
      required: true,
      description: 'Route path, starting with / (e.g. /monitors/123).',
      missing: 'Missing --route=<path>.',
    },
    includeSnapshot(true),
    snapshotMode(),
  ],
  validate(input) {
    if (typeof input.route === 'string' && !input.route.startsWith('/'))
      throw new ParamError((name) => `${name('route')} must start with / (got "${input.route}").`)
  },
  result: answer({navigated: optional(boolean), route: optional(string), exactPath: optional(boolean), reason: optional(string)}),
  prefersJson: snapshotAsked,
  report: (result, input) =>
    result.navigated === false
      ? {stderr: [`⚠ Not navigated to ${input.route}: ${result.reason ?? 'the router did not take it'}`]}
      : done(`Navigated to ${input.route}${result.exactPath === false ? ' (landed on a page under it)' : ''}`),
})

export const navigateBack = extensionVerb({
  name: 'navigate_back',
  tool: 'tapir_navigate_back',
  title: 'Navigate back',
  summary: 'Leave the top page, like the system Back button.',
  kind: 'action',
  dusk: {
    on: 'driven',
    method: 'navigate_back',
    params: {includeSnapshot: sent, snapshot: SNAPSHOT_MODE},
    tool: {
      tool: 'dusk_navigate_back',
      summary: 'Go back one page, as the system Back button does.',
    },
  },
  step: 'any',
  record: {as: 'step'},
  params: [includeSnapshot(true), snapshotMode()],
  result: answer({navigatedBack: optional(boolean), popped: optional(boolean)}),
  prefersJson: snapshotAsked,
  report: (result) => done(result.popped === false ? 'Nothing to go back to (every Navigator is at its root)' : 'Navigated back'),
})

export const dismissModals = extensionVerb({
  name: 'dismiss_modals',
  tool: 'tapir_dismiss_modals',
  title: 'Dismiss modals',
  summary: 'Pop every dialog, bottom sheet and popup above the page; safe when none is open.',
  kind: 'set',
  dusk: {
    on: 'driven',
    method: 'dismiss_modals',
    params: {},
    tool: {tool: 'dusk_dismiss_modals', summary: 'Close every dialog, sheet and popup above the page; popped counts them.'},
  },
  step: 'any',
  record: {as: 'step'},
  params: [],
  result: answer({popped: optional(integer)}),
  report: (result) => done(`Dismissed ${result.popped ?? 0} modal(s)`),
})

export const resetOverlays = extensionVerb({
  name: 'reset_overlays',
  tool: 'tapir_reset_overlays',
  title: 'Reset overlays',
  summary: 'Clear overlays step by step (pop, Escape, Close, Cancel).',
  kind: 'set',
  dusk: {on: 'refused'},
  step: 'any',
  record: {as: 'step'},
  params: [],
  result: answer({popped: optional(integer), escaped: optional(boolean), dismissTapped: optional(boolean)}),
})

export const closeApp = extensionVerb({
  name: 'close_app',
  tool: 'tapir_close_app',
  title: 'Close the app',
  summary: 'Ask the app to shut down (SystemNavigator.pop); a browser may keep a web tab open.',
  kind: 'destructive',
  dusk: {
    on: 'driven',
    method: 'close_app',
    params: {},
    tool: {tool: 'dusk_close_app', summary: 'Ask the app to quit; later calls fail until it runs again.'},
  },
  step: 'last',
  record: {as: 'step'},
  params: [],
  result: answer({closed: optional(boolean)}),
  report: () => done('Asked the app to close'),
})

export const navigationVerbs: Verb[] = [navigate, navigateBack, dismissModals, resetOverlays, closeApp]
