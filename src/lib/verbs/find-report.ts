import {nullable, number, list, object, optional, string, type Infer} from '../shape.js'
import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import {answer, geometryAnswer} from '../vm/tapir-answers.js'

const bounds = object({x: number, y: number, w: number, h: number})
type Bounds = Infer<typeof bounds>
/** `observe`'s candidates, with the bounds each carries. */
const candidatesAnswer = answer({
  candidates: list(
    object({ref: string, role: optional(string), label: optional(string), value: optional(nullable(string)), bounds: optional(bounds)}),
  ),
})
type Candidate = Infer<typeof candidatesAnswer>['candidates'][number]

export interface FoundWidget {
  ref?: string
  role?: string
  label?: string
  bounds?: Bounds
}

const MAX_OTHERS = 5
const MAX_CANDIDATES = '200'

type Query = {text?: string; contains?: string; semanticsLabel?: string; key?: string}

const widget = ({ref, role, label, bounds: where}: Candidate, withRef = true): FoundWidget => ({
  ...(withRef ? {ref} : {}),
  ...(role === undefined ? {} : {role}),
  ...(label === undefined ? {} : {label}),
  ...(where === undefined ? {} : {bounds: where}),
})

/** Whether a candidate answers the query the way find matches (exact label, or a substring). */
function matches(candidate: Candidate, query: Query): boolean {
  const label = candidate.label ?? ''
  if (query.contains !== undefined) return label.includes(query.contains)
  const exact = query.text ?? query.semanticsLabel
  return exact !== undefined && label === exact
}

/** What an ambiguous find picked and what else matched: the app's interactive widgets (observe,
 *  read-only), the pick told apart by its bounds (the screenshot extension's geometry mode). */
export async function ambiguousFind(app: AppConnection, ref: string, query: Query, deadline: Deadline) {
  const [{candidates}, {rect}] = await Promise.all([
    app.callExtension('observe', {limit: MAX_CANDIDATES}, candidatesAnswer, deadline),
    app.callExtension('screenshot', {geometry: 'true', ref}, geometryAnswer, deadline),
  ])
  const near = (a: number, b: number) => Math.abs(a - b) < 0.5
  const isPick = (candidate: Candidate) =>
    rect !== undefined &&
    candidate.bounds !== undefined &&
    near(candidate.bounds.x, rect.x) &&
    near(candidate.bounds.y, rect.y) &&
    near(candidate.bounds.w, rect.width) &&
    near(candidate.bounds.h, rect.height)
  const matching = candidates.filter((candidate) => matches(candidate, query))
  const pick = matching.find(isPick) ?? candidates.find(isPick)
  const picked: FoundWidget = pick ? widget(pick, false) : rect ? {bounds: {x: rect.x, y: rect.y, w: rect.width, h: rect.height}} : {}
  const others = matching
    .filter((candidate) => candidate !== pick)
    .slice(0, MAX_OTHERS)
    .map((candidate) => widget(candidate))
  return {picked, others, pickWith: ['key', 'within']}
}

/** The widgets nearest a find that matched nothing: the same label but for case, a Text's data
 *  asked as a Semantics label, a label that contains what was asked. */
export async function nearestToFind(app: AppConnection, query: Query, deadline: Deadline) {
  const asked = query.text ?? query.semanticsLabel ?? query.contains
  if (asked === undefined || asked === '') return {}
  const {candidates} = await app.callExtension('observe', {limit: MAX_CANDIDATES}, candidatesAnswer, deadline)
  const lower = asked.toLowerCase()
  const nearest: Array<FoundWidget & {why: string; ask: Record<string, string>}> = []
  for (const candidate of candidates) {
    const label = candidate.label ?? ''
    const value = candidate.value ?? ''
    if (label === '' && value === '') continue
    let entry: {why: string; ask: Record<string, string>} | undefined
    if (query.semanticsLabel !== undefined && value === asked) entry = {why: 'its text, not its Semantics label', ask: {text: asked}}
    else if (label.toLowerCase() === lower && label !== asked) entry = {why: 'the same but for case', ask: {text: label}}
    else if (query.contains === undefined && label.toLowerCase().includes(lower))
      entry = {why: 'its label contains it', ask: {contains: asked}}
    else if (query.contains !== undefined && label.toLowerCase().includes(lower) && !label.includes(asked))
      entry = {
        why: 'contains it but for case',
        ask: {contains: label.slice(label.toLowerCase().indexOf(lower), label.toLowerCase().indexOf(lower) + asked.length)},
      }
    if (entry) nearest.push({...widget(candidate), ...entry})
    if (nearest.length === MAX_OTHERS) break
  }
  return {nearest}
}
