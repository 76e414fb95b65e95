import {findingLine, parseRules} from '../a11y/findings.js'
import type {Box, Finding} from '../a11y/types.js'
import {ParamError} from '../errors.js'
import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import {findAnswer, observeAnswer, routesAnswer} from '../vm/tapir-answers.js'
import {defineVerb} from './define.js'
import {waitTimeout} from './params.js'
import type {VerbCall} from './types.js'

/** How often a condition that does not hold yet is read again. */
const POLL_MS = 100

/** What expect reports: whether its condition held in time, and what it saw last. */
export interface Expectation {
  [key: string]: unknown
  passed: boolean
  /** The condition in words (`a widget with text "Total" is visible`). */
  expected: string
  /** What the app showed at the last look. */
  saw: string
  elapsedMs: number
  /** With a11y: what the audit found on the rules asked for (none when it passed). */
  findings?: Finding[]
  /** With a11y: the view in logical pixels, which the findings' rects are in. */
  view?: Box | null
}

const SELECTORS = ['text', 'contains', 'label', 'key'] as const
const STATES = ['visible', 'enabled'] as const

type ExpectInput = {
  text?: string
  contains?: string
  label?: string
  key?: string
  gone?: boolean
  count?: number
  visible?: boolean
  enabled?: boolean
  route?: string
  a11y?: string
  timeoutMs?: number
}

export const expectVerb = defineVerb({
  name: 'expect',
  tool: 'tapir_expect',
  title: 'Expect',
  addition: true,
  dispatch: 'tapir:expect',
  summary: 'Wait until a widget or the route is as expected.',
  cliExit: 'exits 1 when the condition does not hold within the timeout',
  details:
    "A check for flows and CI (tapir test). It reads the app with find, observe and get_routes, again every 100 ms, until the condition holds or timeoutMs passes. Widgets are matched as find matches them: text is the exact label or Text data, contains a substring of either, label the Semantics label only, key the widget's Key. visible and enabled are read from observe's candidates, which carry labels and no keys, so they need text, contains or label. No read of the tool reference reports whether a checkbox is checked, so expect has no such condition: set_checkbox verifies the state it sets. a11y runs the accessibility audit of tapir:a11y once the other conditions hold, and fails on its findings (docs/a11y.md). This verb is tapir's own; the tool reference has no expect.",
  example: '--text="Sign in" --count=2',
  kind: 'read',
  dusk: {on: 'refused'},
  step: 'any',
  record: {as: 'nothing'},
  params: [
    {name: 'text', type: 'string', description: 'A widget whose label or Text data is exactly this.'},
    {
      name: 'contains',
      type: 'string',
      description: 'A widget whose label or Text data contains this.',
    },
    {name: 'label', type: 'string', description: 'A widget whose Semantics label is exactly this.'},
    {
      name: 'key',
      type: 'string',
      description: "A widget with this Key (a ValueKey's value as text).",
    },
    {
      name: 'gone',
      type: 'boolean',
      description: 'Expect no widget to match (text gone, a dialog closed).',
    },
    {
      name: 'count',
      type: 'integer',
      minimum: 0,
      description: 'Expect exactly this many matching widgets (at least one when omitted).',
    },
    {
      name: 'visible',
      type: 'boolean',
      description: 'Expect the widget to be visible (--no-visible: not visible).',
    },
    {name: 'enabled', type: 'boolean', description: 'Expect the widget to be enabled (--no-enabled: disabled).'},
    {
      name: 'route',
      type: 'string',
      description: "Expect the app's current route to be this (/settings).",
    },
    {
      name: 'a11y',
      type: 'string',
      bare: 'all',
      brief: 'all, or rule names.',
      description: 'Expect no accessibility findings (tapir:a11y) on these rules: --a11y for all, --a11y=contrast,label for some.',
    },
    waitTimeout(),
  ],
  waitsMs: (input) => Number(input.timeoutMs ?? 5000),
  validate(input) {
    const selectors = SELECTORS.filter((name) => typeof input[name] === 'string' && input[name] !== '')
    const states = STATES.filter((name) => input[name] !== undefined)
    if (input.a11y !== undefined) parseRules(input.a11y, 'a11y')
    if (selectors.length === 0 && input.route === undefined && input.a11y === undefined)
      throw new ParamError(
        (name) => `Say what to expect: ${SELECTORS.map(name).join(', ')} for a widget, or ${name('route')} for the current route.`,
      )
    if (selectors.length > 1)
      throw new ParamError((name) => `Give one of ${SELECTORS.map(name).join(', ')}, not ${selectors.map(name).join(' and ')}.`)
    if (selectors.length === 0 && (input.gone !== undefined || input.count !== undefined || states.length > 0))
      throw new ParamError(
        (name) => `${name('gone')}, ${name('count')} and the states need a widget: give ${SELECTORS.map(name).join(', ')}.`,
      )
    if (input.gone === true && (input.count !== undefined || states.length > 0))
      throw new ParamError((name) => `${name('gone')} expects no widget, so it takes no ${name('count')}, ${STATES.map(name).join(', ')}.`)
    if (states.length > 0 && input.key !== undefined)
      throw new ParamError(
        (name) =>
          `${states.map(name).join(', ')} ${states.length === 1 ? 'is' : 'are'} read from observe, which lists widgets by label, not key: give ${name('text')}, ${name('contains')} or ${name('label')}.`,
      )
  },
  async execute(call, input): Promise<Expectation> {
    const started = Date.now()
    const timeoutMs = Number(input.timeoutMs ?? 5000)
    const app = await call.app()
    const others = input.route !== undefined || SELECTORS.some((name) => input[name] !== undefined)
    for (;;) {
      const look = others ? await lookOnce(app, input, call.deadline) : {holds: true, saw: ''}
      const elapsedMs = Date.now() - started
      if (look.holds && input.a11y !== undefined) return lookAtA11y(call, input, look.saw, started)
      if (look.holds || elapsedMs >= timeoutMs) return {passed: look.holds, expected: describe(input), saw: look.saw, elapsedMs}
      await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, timeoutMs - elapsedMs)))
    }
  },
  failed: (result) => !result.passed,
  mcpIsError: (result) => !result.passed,
  report: (result) =>
    result.passed
      ? {stdout: `✓ ${capital(result.expected)} (after ${result.elapsedMs} ms)`}
      : {
          stderr: [
            ...(result.findings ?? []).map((finding) => `  ${findingLine(finding)}`),
            `✗ Expected ${result.expected} within ${result.elapsedMs} ms; saw ${result.saw}.`,
          ],
        },
})

/** The audit runs once, after the other conditions hold: its findings are the step's failure. */
async function lookAtA11y(call: VerbCall, input: ExpectInput, sawBefore: string, started: number): Promise<Expectation> {
  const {audit} = await import('./a11y-audit.js')
  const result = await audit(call, {rules: input.a11y!})
  const count = result.findings.length
  const saw = [sawBefore, count === 0 ? 'no accessibility findings' : `${count} accessibility finding${count === 1 ? '' : 's'}`]
    .filter((part) => part !== '')
    .join('; ')
  return {
    passed: count === 0,
    expected: describe(input),
    saw,
    elapsedMs: Date.now() - started,
    findings: result.findings,
    view: result.view,
  }
}

const describeA11y = (rules: string): string => `no accessibility findings (${rules === 'all' ? 'tap-target, label, contrast' : rules})`

interface Look {
  holds: boolean
  saw: string
}

async function lookOnce(app: AppConnection, input: ExpectInput, deadline: Deadline): Promise<Look> {
  const looks: Look[] = []
  if (input.route !== undefined) looks.push(await lookAtRoute(app, input.route, deadline))
  if (SELECTORS.some((name) => input[name] !== undefined)) looks.push(await lookAtWidget(app, input, deadline))
  return {holds: looks.every((look) => look.holds), saw: looks.map((look) => look.saw).join('; ')}
}

async function lookAtRoute(app: AppConnection, route: string, deadline: Deadline): Promise<Look> {
  const {uri, location} = await app.callExtension('get_routes', {}, routesAnswer, deadline)
  const current = [uri, location].filter((value): value is string => typeof value === 'string' && value !== '')
  return {holds: current.includes(route), saw: current.length === 0 ? 'no route' : `the route ${JSON.stringify(current[0])}`}
}

async function lookAtWidget(app: AppConnection, input: ExpectInput, deadline: Deadline): Promise<Look> {
  const params: Record<string, string> = {}
  if (input.text !== undefined) params.text = input.text
  if (input.contains !== undefined) params.contains = input.contains
  if (input.label !== undefined) params.semanticsLabel = input.label
  if (input.key !== undefined) params.key = input.key
  const found = await app.callExtension('find', params, findAnswer, deadline)
  const count = found.matched ? (typeof found.matchCount === 'number' ? found.matchCount : 1) : 0
  const saw = count === 0 ? 'no such widget' : `${count} such widget${count === 1 ? '' : 's'}`
  if (input.gone === true) return {holds: count === 0, saw}
  if (input.count !== undefined ? count !== input.count : count === 0) return {holds: false, saw}
  const states = STATES.filter((name) => input[name] !== undefined)
  if (states.length === 0) return {holds: true, saw}
  const {candidates} = await app.callExtension('observe', {includeEnrichers: 'false'}, observeAnswer, deadline)
  const matching = candidates.filter((candidate) => labelMatches(candidate.label, input))
  if (matching.length === 0) return {holds: false, saw: `${saw}, none of them among the interactive widgets`}
  const wrong = states.flatMap((name) => {
    const values = matching.map((candidate) => stateOf(candidate, name))
    return values.some((value) => value === input[name]) ? [] : [`${name}: ${values.map(String).join(', ')}`]
  })
  return {holds: wrong.length === 0, saw: wrong.length === 0 ? saw : `${saw}, ${wrong.join('; ')}`}
}

function labelMatches(label: string | undefined, input: ExpectInput): boolean {
  if (typeof label !== 'string') return false
  if (input.contains !== undefined) return label.includes(input.contains)
  return label === (input.text ?? input.label)
}

/** A candidate's state as observe reports it. */
function stateOf(candidate: Record<string, unknown>, name: (typeof STATES)[number]): boolean | 'unknown' {
  const value = candidate[{visible: 'isVisible', enabled: 'isEnabled'}[name]]
  return typeof value === 'boolean' ? value : 'unknown'
}

function describe(input: ExpectInput): string {
  const parts: string[] = []
  const selector = SELECTORS.find((name) => input[name] !== undefined)
  if (selector) {
    const what = {text: 'text', contains: 'text containing', label: 'label', key: 'key'}[selector]
    const widget = `${what} ${JSON.stringify(input[selector])}`
    if (input.gone === true) parts.push(`no widget with ${widget}`)
    else {
      const count = input.count === undefined ? 'a widget' : `${input.count} widget${input.count === 1 ? '' : 's'}`
      const states = STATES.filter((name) => input[name] !== undefined).map((name) => (input[name] ? name : `not ${name}`))
      parts.push(`${count} with ${widget}${states.length > 0 ? `, ${states.join(' and ')}` : ''}`)
    }
  }
  if (input.route !== undefined) parts.push(`the route ${JSON.stringify(input.route)}`)
  if (input.a11y !== undefined) parts.push(describeA11y(input.a11y))
  return parts.join(' and ')
}

const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1)
