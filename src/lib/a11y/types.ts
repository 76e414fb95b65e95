/** A rect in logical pixels, as observe's `bounds` give it. */
export interface Box {
  x: number
  y: number
  w: number
  h: number
}

/** The rules tapir audits, by the names `--rules` and `expect --a11y` take. */
export const RULES = ['tap-target', 'label', 'contrast'] as const
export type Rule = (typeof RULES)[number]

/** One node of the screen as snap and observe give it: what the rules read. */
export interface ScreenNode {
  /** The snapshot's eN, or null for a `- text` line (it has no ref). */
  ref: string | null
  /** The snapshot role (button, textbox, ...); `text` for a plain text line. */
  role: string
  label: string
  value: string
  /** Logical pixels; null when neither observe nor the app's geometry gave one. */
  rect: Box | null
  /** observe's isEnabled; undefined when the node has no enabled state or was not listed. */
  enabled?: boolean
  /** observe's isVisible (non-empty bounds that overlap the view). */
  visible?: boolean
  /** The snapshot's [offscreen] marker, or observe's inViewport: false. */
  offscreen?: boolean
}

/** One thing the audit found. */
export interface Finding {
  [key: string]: unknown
  rule: Rule
  /** The snapshot's eN; null for a text line (it carries none), which `label` then names. */
  ref: string | null
  role: string
  label: string
  rect: Box | null
  /** What was measured, with its unit (`32x32`, `2.68:1`). */
  measured: string
  /** What the rule asks for (`48x48`, `4.5:1`). */
  threshold: string
  /** What to change, in plain words. */
  fix: string
  /** What the audit had to assume for this node (a font size the app does not tell). */
  assumed?: string
}
