import type {Candidate, Predicates, RecordingState, ScreenNode} from './state.js'

/** How a replay finds the widget an action used, from what the session saw of it. */
export type Locator =
  /** A find step: the predicates, how many widgets they match (find picks this one of them). */
  | {kind: 'find'; predicates: Predicates; matches: number; written?: Predicates; note?: string}
  /** An observe step over one role: the `nth` of the `of` candidates with this label. */
  | {kind: 'observe'; role: string; label: string; nth: number; of: number; note?: string}
  | {kind: 'none'; why: string}

/** What the session saw of the widget: its name for a binding and a secret, and whether a
 *  snapshot showed its value obscured. */
export interface Sight {
  label: string
  obscured: boolean
}

/** A control a user acts on, by its snapshot role: find picks the first of these among the nodes
 *  a label matches, and the first node only when none is (the reference, tapir_find). A heading,
 *  an image and a `- text` line are not. */
const ACTIONABLE = new Set(['button', 'textbox', 'checkbox', 'link'])
/** The roles observe's `roles` filter takes (the reference, tapir_observe). */
const OBSERVABLE = new Set(['button', 'textbox', 'link', 'checkbox', 'heading', 'image'])

// eslint-disable-next-line no-control-regex -- a label must be writable as a terminal-safe step word
const UNWRITABLE = /[\u0000-\u001f\u007f-\u009f]/

/** The runs of a label free of control characters, longest first, for `contains`. */
function writableParts(label: string): string[] {
  // eslint-disable-next-line no-control-regex -- as above
  const parts = label.split(/[\u0000-\u001f\u007f-\u009f]+/).map((part) => part.trim())
  return [...new Set(parts.filter((part) => part !== ''))].sort((a, b) => b.length - a.length)
}

export const predicateText = (predicates: Predicates) =>
  Object.entries(predicates)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name} ${JSON.stringify(value)}`)
    .join(', ')

const named = (node: {role: string; label: string}) => `${node.role} ${JSON.stringify(node.label)}`

/** What a replay's observe lists: with the package every node with a role (each carries
 *  `inViewport`, the reference, tapir_observe), with no package only those on screen
 *  (src/lib/zero/drive.ts `observe`), so there a snapshot's `[offscreen]` nodes are not counted. */
export interface Observed {
  readonly onScreenOnly: boolean
}

const observable = (entry: ScreenNode, observed: Observed) => !(observed.onScreenOnly && entry.offscreen === true)

/** The widget a ref or handle names, and how a replay finds it, from the recording's state alone. */
export function locate(ref: string, state: RecordingState, observed: Observed): {locator: Locator; sight?: Sight} {
  const found = state.finds[ref]
  if (found) {
    const {matches, written, ...predicates} = found
    // A predicate read from the environment never names anything: it may be a secret.
    const label =
      Object.entries(predicates).find(
        (entry): entry is [string, string] => typeof entry[1] === 'string' && !(written && entry[0] in written),
      )?.[1] ?? ''
    return {
      locator: {kind: 'find', predicates, matches, ...(written ? {written} : {})},
      sight: {label, obscured: (state.screen?.nodes ?? []).some((node) => node.obscured === true && node.label === label)},
    }
  }
  const candidate = state.candidates[ref]
  if (candidate) return {locator: locateCandidate(candidate, state, observed), sight: {label: candidate.label, obscured: false}}
  const {screen} = state
  const node = screen && /^e\d+$/.test(ref) ? screen.nodes.find((entry) => entry.ref === ref) : undefined
  if (!screen || !node)
    return {
      locator: {
        kind: 'none',
        why: /^e\d+$/.test(ref)
          ? `${ref} was in no snapshot of the whole screen tapir saw last (snap without --within, --grep or --depth before acting on it)`
          : `tapir saw no observe answer or find (without --within) answer with ${ref}`,
      },
    }
  return {locator: locateOnScreen(node, screen, observed), sight: {label: node.label, obscured: node.obscured === true}}
}

/**
 * A widget of the screen: find by its label when find picks it (its label alone, or the first
 * control of several nodes with that label), counting the nodes the label matches; else observe
 * over its role, picking it by its place among the candidates with its role and label. A screen
 * whose plain text lines were left out (interactiveOnly) cannot count a label's nodes, so only
 * observe, which lists nodes with a role alone, is exact there.
 */
export function locateOnScreen(
  node: ScreenNode,
  screen: {readonly complete: boolean; readonly nodes: readonly ScreenNode[]},
  observed: Observed,
): Locator {
  if (node.label === '')
    return {kind: 'none', why: `the ${node.role} ${node.ref ?? ''} has no label, so no find or observe step can name it`}
  const tries: Array<[Predicates, (label: string) => boolean]> = UNWRITABLE.test(node.label)
    ? writableParts(node.label).map((part) => [{contains: part}, (label: string) => label.includes(part)])
    : [[{semanticsLabel: node.label}, (label: string) => label === node.label]]
  let picked: string | undefined
  if (screen.complete) {
    for (const [predicates, matches] of tries) {
      const same = screen.nodes.filter((entry) => matches(entry.label))
      const pick = same.find((entry) => ACTIONABLE.has(entry.role)) ?? same[0]
      if (pick === node)
        return {
          kind: 'find',
          predicates,
          matches: same.length,
          ...(same.length > 1
            ? {
                note: `${predicateText(predicates)} matches ${same.length} widgets, and find picks this ${named(node)}, the first control of them`,
              }
            : {}),
        }
      if (pick) picked ??= `${predicateText(predicates)} matches ${same.length} widgets and find picks the ${named(pick)}`
    }
  }
  if (!OBSERVABLE.has(node.role) || UNWRITABLE.test(node.label))
    return {
      kind: 'none',
      why: `no step names the ${named(node)}: ${picked ?? 'the snapshot left out its plain text lines (interactiveOnly), so a find cannot be counted'}, and observe ${OBSERVABLE.has(node.role) ? 'cannot pick a label with control characters' : `lists no ${node.role}`}`,
    }
  if (!observable(node, observed))
    return {
      kind: 'none',
      why: `no step names the ${named(node)}: ${picked ?? 'the snapshot left out its plain text lines (interactiveOnly), so a find cannot be counted'}, and observe lists only the nodes on screen on an app with no package (it was [offscreen])`,
    }
  const same = screen.nodes.filter(
    (entry) => entry.ref !== undefined && entry.role === node.role && entry.label === node.label && observable(entry, observed),
  )
  const nth = same.indexOf(node) + 1
  const why = picked ?? 'the snapshot had no plain text lines (interactiveOnly) to count the nodes a find would match'
  return {kind: 'observe', role: node.role, label: node.label, nth, of: same.length, note: `observe, not find: ${why}`}
}

/** An observe handle: as the same widget on the screen when the snapshot was of the same screen
 *  (no action came between) and shows it (the `nth` of its role and label there), else as
 *  observe saw it. */
function locateCandidate(candidate: Candidate, state: RecordingState, observed: Observed): Locator {
  const {screen} = state
  if (screen && screen.after === candidate.after) {
    const same = screen.nodes.filter(
      (entry) => entry.ref !== undefined && entry.role === candidate.role && entry.label === candidate.label && observable(entry, observed),
    )
    const node = same[candidate.nth - 1]
    if (node && same.length === candidate.of) return locateOnScreen(node, screen, observed)
  }
  if (candidate.label === '')
    return {
      kind: 'none',
      why: `the observed ${candidate.role} has no label: observe's handle for it matches its value text, which can name another control`,
    }
  if (!OBSERVABLE.has(candidate.role) || UNWRITABLE.test(candidate.label))
    return {kind: 'none', why: `no observe step can pick the ${named(candidate)} by its role and label`}
  return {kind: 'observe', role: candidate.role, label: candidate.label, nth: candidate.nth, of: candidate.of}
}
