import {boolean, nullable, number, object, optional, string, type Infer} from '../shape.js'
import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import {answer} from '../vm/tapir-answers.js'
import type {Predicates} from './state.js'

const widgetShape = object({
  id: string,
  role: nullable(string),
  label: string,
  value: nullable(string),
  bounds: object({x: number, y: number, w: number, h: number}),
  key: optional(string),
  textField: boolean,
  obscured: boolean,
  field: optional(string),
})
const lookupAnswer = answer({
  view: object({width: number, height: number, devicePixelRatio: number}),
  widget: optional(nullable(widgetShape)),
  reason: optional(string),
  matchCount: optional(number),
})

/** A widget as the app's trace-free lookup describes it: the same `id` is the same widget. */
export type Widget = Infer<typeof widgetShape>

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

/**
 * The app's read that leaves no trace (`ext.tapir.lookup`): what a ref names and what a find
 * would match, with no handle minted, no ref relocated or reported, no frame drawn. snap,
 * observe and find all mint refs or handles the session would then number past, so the
 * recorder asks the app nothing else.
 */
export class TraceFreeLookup {
  private constructor(
    private readonly app: AppConnection,
    private readonly deadline: Deadline,
  ) {}

  /** The lookup, when the app registers it (read from the isolate, so asking calls nothing). */
  static async of(app: AppConnection, deadline: Deadline): Promise<TraceFreeLookup | undefined> {
    return (await app.registers('lookup', deadline)) ? new TraceFreeLookup(app, deadline) : undefined
  }

  private call(params: Record<string, string>) {
    return this.app.callExtension('lookup', params, lookupAnswer, this.deadline)
  }

  /** The widget `ref` names now, as the action about to run resolves it; undefined when none. */
  async widget(ref: string): Promise<Widget | undefined> {
    return (await this.call({ref})).widget ?? undefined
  }

  /** How many widgets the predicates match, and the one find picks of them. */
  async query(predicates: Predicates): Promise<{matches: number; widget?: Widget}> {
    const params = Object.fromEntries(Object.entries(predicates).filter(([, value]) => value !== undefined)) as Record<string, string>
    const found = await this.call(params)
    return {matches: found.matchCount ?? 0, ...(found.widget ? {widget: found.widget} : {})}
  }

  /** The viewport as the header shows it (`400x800 @2x`). */
  async viewport(): Promise<string> {
    const {view} = await this.call({})
    return `${view.width}x${view.height} @${view.devicePixelRatio}x`
  }
}

// eslint-disable-next-line no-control-regex -- a predicate value must be writable as a terminal-safe step word
const UNWRITABLE = /[\u0000-\u001f\u007f-\u009f]/

/** The runs of a label free of control characters, longest first, for `contains`. */
function writableParts(label: string): string[] {
  // eslint-disable-next-line no-control-regex -- as above
  const parts = label.split(/[\u0000-\u001f\u007f-\u009f]+/).map((part) => part.trim())
  return [...new Set(parts.filter((part) => part !== ''))].sort((a, b) => b.length - a.length)
}

/** The predicates to try for a widget, best first: its key, its label as a semantics label and as
 *  text, then `contains` with each part, longest first, of a label that holds control characters (a step
 *  line is written terminal-safe, so such a label cannot be matched exactly). An unlabelled widget
 *  by its value, unless it is a text field (what it holds was typed, not a name). */
export function predicatesFor(widget: Widget): Predicates[] {
  const tries: Predicates[] = []
  if (widget.key !== undefined && !UNWRITABLE.test(widget.key)) tries.push({key: widget.key})
  if (widget.label !== '' && !UNWRITABLE.test(widget.label)) tries.push({semanticsLabel: widget.label}, {text: widget.label})
  else if (widget.label !== '') tries.push(...writableParts(widget.label).map((part) => ({contains: part})))
  else if (widget.value && !widget.textField && !UNWRITABLE.test(widget.value)) tries.push({text: widget.value})
  return tries
}

/** A widget in words for a comment: its role, its label (never a text field's typed value) and where it is. */
export function describe(widget: Widget): string {
  const name = widget.label || (widget.textField ? '' : (widget.value ?? ''))
  return `${widget.role ?? 'widget'} ${JSON.stringify(name)} at (${widget.bounds.x}, ${widget.bounds.y})`
}

export const predicateText = (predicates: Predicates) =>
  Object.entries(predicates)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name} ${JSON.stringify(value)}`)
    .join(', ')

/** A locator for `widget`: the first predicate that matches it alone; else one that matches it
 *  among others, which find picks, with `--matches`; else none (the step is not replayable), and
 *  why: a predicate find would answer with another widget is never written. */
export async function locate(lookup: TraceFreeLookup, widget: Widget): Promise<Locator> {
  let several: Locator | undefined
  let other: Locator | undefined
  for (const predicates of predicatesFor(widget)) {
    const found = await lookup.query(predicates)
    if (found.matches === 0 || !found.widget) continue
    if (found.widget.id === widget.id && found.matches === 1) return {predicates, matches: 1, pinned: true, widget}
    if (found.widget.id === widget.id) {
      several ??= {
        predicates,
        matches: found.matches,
        pinned: true,
        widget,
        note: `no predicate matches only this widget: ${predicateText(predicates)} matches ${found.matches} widgets, and find picks this one`,
      }
      continue
    }
    // A replay must not act on another widget than the session did: no step rather than that one.
    other ??= {
      predicates: {},
      matches: 0,
      pinned: false,
      widget,
      note: `no predicate picks out the ${describe(widget)}: ${predicateText(predicates)} matches ${found.matches} widgets and find picks the ${describe(found.widget)}, so a find step would act on that one`,
    }
  }
  return several ?? other ?? {predicates: {}, matches: 0, pinned: false, widget, note: `no find predicate matches the ${describe(widget)}`}
}
