import type {Point} from './geometry.js'
import type {FieldKey, ScrollId} from './ui-node.js'

export interface Monitor {
  readonly id: number
  name: string
  paused: boolean
  /** Marked with a double tap on its row: the row label gains a trailing ★. */
  favourite: boolean
}

/** `accessibility` is a screen with planted accessibility faults, shown in the shell's body with no tab of its own. */
export type Branch = 'monitors' | 'settings' | 'accessibility'

/** The shell (a StatefulShellRoute): one nested navigator per branch, both kept alive. */
export interface Shell {
  readonly instance: number
  branch: Branch
  readonly monitorsPage: number
  readonly settingsPage: number
  /** A detail page stacked on the monitors branch's navigator. */
  detail: {readonly monitorId: number; readonly instance: number} | null
}

export type RootPage = {readonly kind: 'login'; readonly instance: number} | {readonly kind: 'shell'; readonly shell: Shell}

/** Pageless routes pushed on the root navigator above the page. */
export type Popup =
  | {readonly kind: 'deleteMonitor'; readonly monitorId: number; readonly instance: number}
  | {readonly kind: 'regionMenu'; readonly instance: number}
  /** A monitor row's context menu (a right click on its name), opened at the pointer. */
  | {readonly kind: 'rowMenu'; readonly monitorId: number; readonly instance: number; readonly at: Point}
  | {readonly kind: 'renameMonitor'; readonly monitorId: number; readonly instance: number}
  /**
   * The FAB's modal bottom sheet. `openedAt` is the frame clock when the route was pushed: its
   * entrance animation reads how many frames have been drawn since. `invalid` is set when Create
   * was pressed with a blank name.
   */
  | {readonly kind: 'newMonitor'; readonly instance: number; readonly openedAt: number; invalid: boolean}

export interface Settings {
  emailAlerts: boolean
  darkMode: boolean
  region: string
  acceptBeta: boolean
}

export interface AppState {
  root: RootPage
  popups: Popup[]
  nextInstance: number
  /**
   * The frame clock every Ticker reads: frames drawn since `main()`. It advances only when the
   * engine draws a frame, so an animation makes no progress while no frames are produced.
   */
  clock: number
  user: {readonly email: string} | null
  fields: Record<FieldKey, string>
  focusedField: FieldKey | null
  /** The widget path of a non-text control that holds keyboard focus (only while no field does). */
  focusedControl: string | null
  /** The focused field's whole text is selected (a triple click, Ctrl+A). */
  selectedAll: boolean
  /** The MouseRegion the mouse pointer was last moved over. */
  hovered: string | null
  /** The message of the snack bar shown on the settings page. */
  snackBar: string | null
  signInError: boolean
  resetLinkSent: boolean
  monitors: Monitor[]
  alertsEnabled: boolean
  settings: Settings
  scroll: Record<ScrollId, number>
}

const MONITOR_NAMES = [
  'API',
  'Web',
  'DB',
  'Queue',
  'Cache',
  'Search',
  'Auth',
  'Billing',
  'Mail',
  'CDN',
  'DNS',
  'Storage',
  'Metrics',
  'Logs',
  'Cron',
  'Gateway',
  'Payments',
  'Chat',
  'Media',
  'Backup',
] as const

export const REGIONS = ['eu', 'us', 'asia'] as const

/** What the app's backend holds when it starts: the monitors' names (twenty short ones by default). */
export interface SeedData {
  monitorNames?: readonly string[]
}

export function initialState(seed: SeedData = {}): AppState {
  return {
    root: {kind: 'login', instance: 1},
    popups: [],
    nextInstance: 2,
    clock: 0,
    user: null,
    fields: {email: '', password: '', interval: '60', nickname: '', rename: '', monitorName: ''},
    focusedField: null,
    focusedControl: null,
    selectedAll: false,
    hovered: null,
    snackBar: null,
    signInError: false,
    resetLinkSent: false,
    monitors: (seed.monitorNames ?? MONITOR_NAMES).map((name, i) => ({id: i + 1, name, paused: false, favourite: false})),
    alertsEnabled: true,
    settings: {emailAlerts: false, darkMode: false, region: 'eu', acceptBeta: false},
    scroll: {monitorsList: 0, settings: 0},
  }
}

export function mintInstance(state: AppState): number {
  return state.nextInstance++
}
