import type {Thresholds} from './run-file.js'

export const PLATFORMS = ['chrome', 'android', 'ios', 'sim'] as const
export type Platform = (typeof PLATFORMS)[number]

/** A scalar after `${...}` interpolation; a secret is typed into the app but never shown. */
export interface Value {
  text: string
  secret: boolean
  /** Built from a value already reported as a problem (an unset variable): checks of its own
   *  would only repeat that one cause. */
  unresolved?: boolean
}

export const TARGET_ROLES = ['button', 'textbox', 'checkbox', 'link', 'heading', 'image'] as const

/** A widget named by what a user sees, resolved on the live screen at run time. */
export type Target =
  | {by: 'text'; text: string; index: number}
  | {by: 'label'; label: string}
  | {by: 'role'; role: (typeof TARGET_ROLES)[number]; name: string; index: number}
  | {by: 'key'; key: string}

interface Scoped {
  /** The platforms the step runs on; absent: all of the scenario's. */
  only?: Platform[]
}

export type Gesture =
  | ({verb: 'tap'; target: Target} & Scoped)
  | ({verb: 'fill' | 'type'; target: Target; text: Value} & Scoped)
  | ({verb: 'scroll' | 'drag'; target: Target; dx: number; dy: number} & Scoped)
  | ({verb: 'wheel'; target: Target; dx: number; dy: number; ticks: number} & Scoped)
  | ({verb: 'press_key'; key: string} & Scoped)
  | ({verb: 'wait'; ms: number} & Scoped)

export type Step = Gesture | ({verb: 'navigate'; route: string} & Scoped) | ({verb: 'resize'; width: number; height: number} & Scoped)

export interface When {
  text?: string
  unlessText?: string
  timeoutMs: number
}

export type SetupEntry =
  | Gesture
  | {verb: 'hot_restart'}
  | {verb: 'navigate'; route: string}
  | {verb: 'wait_for_text'; text: string; timeoutMs: number}
  | {verb: 'wait_for_network_idle'}
  | {verb: 'include'; path: string; when?: When; setup: SetupEntry[]}

export interface Scenario {
  name: string
  variant?: string
  viewport?: {width: number; height: number}
  platforms: Platform[]
  setup: SetupEntry[]
  steps: Step[]
  repeat: number
  thresholds: Thresholds
  /** Every secret's text, so output can mask it wherever it shows up. */
  secrets: string[]
}
