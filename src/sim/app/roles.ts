import type {SemanticsData} from './frame.js'

export type Role = 'textbox' | 'checkbox' | 'link' | 'heading' | 'image' | 'button'

/** The snapshot role, in the original's precedence; null for a node that is not interactive. */
export function roleOf(data: SemanticsData): Role | null {
  if (data.textField) return 'textbox'
  if (data.checked !== undefined) return 'checkbox'
  if (data.link) return 'link'
  if (data.header) return 'heading'
  if (data.image) return 'image'
  if (data.button || data.tap) return 'button'
  return null
}

/** What fill names when it refuses a control that is not a text field. */
export function controlKind(data: SemanticsData): string | null {
  if (data.textField) return null
  if (data.checked !== undefined) return 'checkbox'
  if (data.toggled !== undefined) return 'switch'
  if (data.link) return 'link'
  if (data.button || data.tap) return 'button'
  return null
}

/** A control a user acts on: it takes taps or text. A heading or image is interactive for the snapshot but not this. */
export function isActionable(data: SemanticsData): boolean {
  return data.tap || data.textField || controlKind(data) !== null
}
