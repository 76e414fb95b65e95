import type {AppModel} from './app-model.js'
import {suggestionsFor, tapirError} from './errors.js'
import {focusableFields, primaryFocus, topRoute} from './focus.js'
import {intersect} from './geometry.js'
import {locationOf} from './router.js'
import {showOnScreen} from './scroll.js'
import {firstScrollable, scrollBy} from './scrolling.js'
import type {FieldKey} from './ui-node.js'

export type Modifier = 'control' | 'shift' | 'alt' | 'meta'

const MODIFIER_NAMES: Readonly<Record<string, Modifier>> = {control: 'control', ctrl: 'control', shift: 'shift', alt: 'alt', meta: 'meta'}

/** The named keys the handler knows, by their logical key label. */
const NAMED_KEYS = [
  'Enter',
  'Escape',
  'Tab',
  'Space',
  'Backspace',
  'Delete',
  'ArrowDown',
  'ArrowUp',
  'ArrowLeft',
  'ArrowRight',
  'PageDown',
  'PageUp',
  'Home',
  'End',
] as const

const ALIASES: Readonly<Record<string, string>> = {esc: 'Escape', return: 'Enter', ' ': 'Space', del: 'Delete'}

/** ScrollAction's line increment, and a page as 80% of the viewport. */
const LINE_SCROLL_PX = 50
const PAGE_FRACTION = 0.8

/** The `modifiers` comma list, any case; an unknown name fails before any key goes down. */
export function parseModifiers(raw: string | undefined): ReadonlySet<Modifier> {
  const held = new Set<Modifier>()
  for (const part of (raw ?? '').split(',')) {
    const name = part.trim().toLowerCase()
    if (name === '') continue
    const modifier = MODIFIER_NAMES[name]
    if (modifier === undefined) {
      throw tapirError(`ext.tapir.press_key: unknown modifier "${part.trim()}"; use control (or ctrl), shift, alt or meta`, 'unexpected')
    }
    held.add(modifier)
  }
  return held
}

/** A logical key label (any case, spaces ignored: `Arrow Down`), or one letter or digit; the canonical label. */
export function parseKey(label: string): string {
  if (/^[a-z0-9]$/i.test(label)) return label.toUpperCase()
  const folded = label.replace(/\s+/g, '').toLowerCase()
  const named = NAMED_KEYS.find((key) => key.toLowerCase() === folded) ?? ALIASES[label.toLowerCase()] ?? ALIASES[folded]
  if (named !== undefined) return named
  throw tapirError(
    `ext.tapir.press_key: unknown key "${label}"; pass a logical key label (${NAMED_KEYS.join(', ')}) or one letter or digit`,
    'not_found',
    undefined,
    suggestionsFor(label, NAMED_KEYS),
  )
}

const exactly = (held: ReadonlySet<Modifier>, ...wanted: Modifier[]): boolean =>
  held.size === wanted.length && wanted.every((modifier) => held.has(modifier))

/** Ctrl on Linux and Windows, Cmd on macOS: either one alone. */
const primaryShortcut = (held: ReadonlySet<Modifier>): boolean => exactly(held, 'control') || exactly(held, 'meta')

/**
 * KeyDown + KeyUp through the binding, with the modifiers held around it: what the focused
 * widget, the route's DismissAction, focus traversal and the page's shortcuts do with the key.
 */
export function pressKey(app: AppModel, key: string, held: ReadonlySet<Modifier> = new Set()): void {
  const {on, state} = app
  const focus = primaryFocus(app)
  const field = focus?.kind === 'field' ? focus.field : null
  switch (key) {
    case 'Escape':
      if (state.hovered !== null) on.hover(null)
      if (state.popups.length > 0) on.dismissPopup()
      break
    case 'Tab':
      if (exactly(held) || exactly(held, 'shift')) traverse(app, held.has('shift') ? -1 : 1)
      break
    case 'Enter':
      if (!exactly(held)) break
      if (field !== null) on.submit(field)
      else if (focus?.kind === 'control') focus.widget.ui.onTap?.()
      break
    case 'Space':
      if (exactly(held) && focus?.kind === 'control') focus.widget.ui.onTap?.()
      break
    case 'Backspace':
    case 'Delete':
      if (field !== null) deleteIn(app, field, key === 'Backspace')
      break
    case 'ArrowLeft':
    case 'ArrowRight':
    case 'Home':
    case 'End':
      if (field !== null) state.selectedAll = false
      break
    case 'ArrowDown':
    case 'ArrowUp':
    case 'PageDown':
    case 'PageUp':
      if (field === null && state.popups.length === 0 && exactly(held)) scrollPage(app, key)
      break
    default:
      shortcut(app, key, held, field)
  }
  app.pump()
}

/** Tab / Shift+Tab: the next or previous text field of the top route, wrapping; the new focus is shown on screen. */
function traverse(app: AppModel, step: 1 | -1): void {
  const fields = focusableFields(app.frame)
  if (fields.length === 0) return
  const current = fields.findIndex((m) => m.ui.editable === app.state.focusedField)
  const next = current < 0 ? (step === 1 ? 0 : fields.length - 1) : (current + step + fields.length) % fields.length
  const editable = fields[next]!
  app.on.focus(editable.ui.editable!)
  app.pump()
  showOnScreen(app, editable.parent ?? editable)
}

/** Backspace deletes the selection or the character before the caret (at the end); Delete only a selection. */
function deleteIn(app: AppModel, field: FieldKey, backspace: boolean): void {
  const text = app.state.fields[field]
  if (app.state.selectedAll) app.on.enterText(field, '')
  else if (backspace && text.length > 0) app.on.enterText(field, text.slice(0, -1))
}

/** The arrow and page keys scroll the page's Scrollable (ScrollAction) when no field takes them. */
function scrollPage(app: AppModel, key: string): void {
  const scroller = firstScrollable(app.frame, topRoute(app.frame))
  if (scroller === null) return
  const page = intersect(scroller.clip, scroller.ui.rect).height * PAGE_FRACTION
  const delta = {ArrowDown: LINE_SCROLL_PX, ArrowUp: -LINE_SCROLL_PX, PageDown: page, PageUp: -page}[key] ?? 0
  scrollBy(app, scroller, delta)
}

/** Letters and digits enter no text (that is tapir_type's job); only shortcuts react to them. */
function shortcut(app: AppModel, key: string, held: ReadonlySet<Modifier>, field: FieldKey | null): void {
  if (!primaryShortcut(held)) return
  if (key === 'A' && field !== null) app.on.selectAll(field)
  if (key === 'S' && locationOf(app.state) === '/settings' && app.state.popups.length === 0) app.on.saveSettings()
}
