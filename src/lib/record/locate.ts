import {messageOf} from '../errors.js'
import {boolean, list, nullable, number, object, optional, string, type Infer} from '../shape.js'
import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import {answer, geometryAnswer} from '../vm/tapir-answers.js'
import type {Predicates} from './state.js'

/** What identifies a widget across two looks at the screen: its role, label and bounds. */
export interface Widget {
  role: string
  label: string
  value: string | null
  bounds: Bounds
  /** The form field it edits, when the app says (observe's magicFormField). */
  field?: string
}

interface Bounds {
  x: number
  y: number
  w: number
  h: number
}

/** A locator for replay: the find predicates, how many widgets they matched, and whether they
 *  were seen to resolve to the very widget the call acted on. */
export interface Locator {
  predicates: Predicates
  matches: number
  pinned: boolean
  /** Why the locator is not pinned, or not exact, in words for a comment. */
  note?: string
  widget?: Widget
}

const bounds = object({x: number, y: number, w: number, h: number})
const candidatesAnswer = answer({
  candidates: list(
    object({
      ref: string,
      role: optional(string),
      label: optional(string),
      value: optional(nullable(string)),
      bounds: optional(bounds),
      magicFormField: optional(string),
    }),
  ),
})
const findAnswer = answer({ref: optional(nullable(string)), matched: optional(boolean), matchCount: optional(number)})
type Candidate = Infer<typeof candidatesAnswer>['candidates'][number]

const sameBounds = (a: Bounds, b: {x: number; y: number; width: number; height: number}) =>
  a.x === b.x && a.y === b.y && a.w === b.width && a.h === b.height

/** The app's answers a locator is made from. */
class Looks {
  constructor(
    private readonly app: AppConnection,
    private readonly deadline: Deadline,
  ) {}

  async rect(ref: string) {
    return (await this.app.callExtension('screenshot', {geometry: 'true', ref}, geometryAnswer, this.deadline)).rect
  }

  async candidates(): Promise<Candidate[]> {
    return (await this.app.callExtension('observe', {includeEnrichers: 'true'}, candidatesAnswer, this.deadline)).candidates
  }

  async find(predicates: Predicates) {
    const params = Object.fromEntries(Object.entries(predicates).filter(([, value]) => value !== undefined)) as Record<string, string>
    return this.app.callExtension('find', params, findAnswer, this.deadline)
  }
}

/** The widget a ref names now, from its rect and the interactive widgets the app lists. */
export async function widgetOf(app: AppConnection, ref: string, deadline: Deadline): Promise<Widget | undefined> {
  const looks = new Looks(app, deadline)
  const rect = await looks.rect(ref)
  if (!rect) return undefined
  const candidate = (await looks.candidates()).find((entry) => entry.bounds && sameBounds(entry.bounds, rect))
  return candidate ? asWidget(candidate, rect) : undefined
}

function asWidget(candidate: Candidate, rect: {x: number; y: number; width: number; height: number}): Widget {
  return {
    role: candidate.role ?? '',
    label: candidate.label ?? '',
    value: candidate.value ?? null,
    bounds: candidate.bounds ?? {x: rect.x, y: rect.y, w: rect.width, h: rect.height},
    ...(candidate.magicFormField ? {field: candidate.magicFormField} : {}),
  }
}

/** The predicates to try for a widget, most specific first, as find reads them (the first set
 *  one wins): its label exactly as a semantics label, then as text; an unlabelled one by its text. */
export function predicatesFor(widget: Widget): Predicates[] {
  if (widget.label !== '') return [{semanticsLabel: widget.label}, {text: widget.label}]
  return widget.value ? [{text: widget.value}] : []
}

const describe = (widget: Widget) =>
  `${widget.role || 'widget'} ${JSON.stringify(widget.label || widget.value || '')} at (${widget.bounds.x}, ${widget.bounds.y})`

export const predicateText = (predicates: Predicates) =>
  Object.entries(predicates)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name} ${JSON.stringify(value)}`)
    .join(', ')

/** A locator for the widget `ref` names, checked against the app: each candidate predicate is
 *  run through find, and the handle it gives compared (role, label, bounds) with the widget. */
export async function locate(app: AppConnection, ref: string, deadline: Deadline): Promise<Locator> {
  const looks = new Looks(app, deadline)
  let widget: Widget | undefined
  let candidates: Candidate[]
  try {
    const rect = await looks.rect(ref)
    candidates = await looks.candidates()
    const candidate = rect && candidates.find((entry) => entry.bounds && sameBounds(entry.bounds, rect))
    widget = candidate && rect ? asWidget(candidate, rect) : undefined
  } catch (error) {
    return {predicates: {}, matches: 0, pinned: false, note: `the app could not say where the widget is (${messageOf(error)})`}
  }
  if (!widget) return {predicates: {}, matches: 0, pinned: false, note: 'the app lists no interactive widget where the ref points'}
  let fallback: Locator | undefined
  for (const predicates of predicatesFor(widget)) {
    const found = await looks.find(predicates)
    if (found.matched !== true || typeof found.ref !== 'string') continue
    const matches = found.matchCount ?? 1
    const rect = await looks.rect(found.ref)
    const hit = rect && candidates.find((entry) => entry.bounds && sameBounds(entry.bounds, rect))
    const same =
      rect !== undefined &&
      hit !== undefined &&
      sameBounds(widget.bounds, rect) &&
      (hit.role ?? '') === widget.role &&
      (hit.label ?? '') === widget.label
    if (same && matches === 1) return {predicates, matches, pinned: true, widget}
    if (same) {
      fallback ??= {
        predicates,
        matches,
        pinned: true,
        widget,
        note: `${predicateText(predicates)} matches ${matches} widgets; find picks this one`,
      }
      continue
    }
    fallback ??= {
      predicates,
      matches,
      pinned: false,
      widget,
      note: `not pinned: no predicate picks out the ${describe(widget)}; ${predicateText(predicates)} matches ${matches} widgets and find picks the ${hit ? describe(asWidget(hit, rect)) : 'another one'}, so replay acts on that one`,
    }
  }
  return fallback ?? {predicates: {}, matches: 0, pinned: false, widget, note: `no find predicate matches the ${describe(widget)}`}
}

/** The app's viewport as the header shows it (`400x800 @2x`), or "unknown". */
export async function viewportOf(app: AppConnection, deadline: Deadline): Promise<string> {
  try {
    const {rect, devicePixelRatio} = await app.callExtension('screenshot', {geometry: 'true'}, geometryAnswer, deadline)
    if (!rect) return 'unknown'
    return `${rect.width}x${rect.height}${devicePixelRatio === undefined ? '' : ` @${devicePixelRatio}x`}`
  } catch {
    return 'unknown'
  }
}
