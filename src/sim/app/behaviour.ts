import {LOG_LEVEL, type Diagnostics} from './diagnostics.js'
import type {Point} from './geometry.js'
import {showShell} from './router.js'
import type {SheetPopup} from './sheet-entrance.js'
import {mintInstance, REGIONS, type AppState, type Monitor, type Popup} from './state.js'
import {FORMATTERS} from './text-formatters.js'
import type {FieldKey} from './ui-node.js'

const MIN_PASSWORD_LENGTH = 4
const FETCH_MONITORS_MS = 800

/** The app's own event handlers: what a tap on each control does to the state. */
export class Behaviour {
  constructor(
    private readonly state: AppState,
    private readonly diagnostics: Diagnostics,
  ) {}

  /** A field takes focus with the caret at the end of its text. */
  focus(field: FieldKey): void {
    this.state.focusedField = field
    this.state.focusedControl = null
    this.state.selectedAll = false
  }

  /** A button, tile or row takes keyboard focus (Enter and Space then activate it). */
  focusControl(path: string): void {
    this.state.focusedField = null
    this.state.focusedControl = path
    this.state.selectedAll = false
  }

  unfocus(): void {
    this.state.focusedField = null
    this.state.focusedControl = null
    this.state.selectedAll = false
  }

  /** A triple click or Ctrl+A in a field: focus, and the whole text selected. */
  selectAll(field: FieldKey): void {
    this.focus(field)
    this.state.selectedAll = true
  }

  /** `userUpdateTextEditingValue`: the field's formatters decide what the controller keeps. */
  enterText(field: FieldKey, text: string): void {
    this.state.fields[field] = FORMATTERS[field](text)
    this.state.selectedAll = false
  }

  /** Enter in a field (its TextInputAction): email moves on to password, password and rename submit, the rest finish editing. */
  submit(field: FieldKey): void {
    if (field === 'email') this.focus('password')
    else if (field === 'password') this.signIn()
    else if (field === 'rename') {
      const top = this.state.popups.at(-1)
      if (top?.kind === 'renameMonitor') this.saveRename(top.monitorId)
    } else if (field === 'monitorName') {
      const top = this.state.popups.at(-1)
      if (top?.kind === 'newMonitor') this.createMonitor(top)
    } else this.unfocus()
  }

  signIn(): void {
    const {email, password} = this.state.fields
    if (email.trim() === '' || password.length < MIN_PASSWORD_LENGTH) {
      this.state.signInError = true
      this.diagnostics.debugPrint('Sign-in refused: email or password missing')
      this.diagnostics.developerLog('sign-in refused: incomplete credentials', 'monitors.auth', LOG_LEVEL.warning)
      return
    }
    this.state.signInError = false
    this.state.user = {email}
    this.diagnostics.debugPrint(`Signed in as ${email}`)
    this.diagnostics.startRequest('GET /api/monitors', FETCH_MONITORS_MS)
    showShell(this.state, 'monitors')
  }

  requestPasswordReset(): void {
    this.state.resetLinkSent = true
  }

  showBranch(branch: 'monitors' | 'settings'): void {
    showShell(this.state, branch)
  }

  openMonitor(monitor: Monitor): void {
    const shell = showShell(this.state, 'monitors')
    shell.detail = {monitorId: monitor.id, instance: mintInstance(this.state)}
  }

  closeMonitor(): void {
    showShell(this.state, 'monitors').detail = null
  }

  togglePause(monitor: Monitor): void {
    monitor.paused = !monitor.paused
  }

  refreshMonitors(): void {
    this.diagnostics.startRequest('GET /api/monitors', FETCH_MONITORS_MS)
  }

  /**
   * The FAB's showModalBottomSheet: a new route whose sheet starts its entrance on the next frame,
   * with an empty, unfocused Name (a fresh controller and focus node). Its barrier now lies over
   * the FAB, so the FAB's MouseRegion sees the mouse leave and the tooltip goes.
   */
  newMonitor(): void {
    this.state.hovered = null
    this.state.fields.monitorName = ''
    if (this.state.focusedField === 'monitorName') this.unfocus()
    this.state.popups.push({kind: 'newMonitor', instance: mintInstance(this.state), openedAt: this.state.clock, invalid: false})
  }

  /** The sheet's Create: a blank name keeps the sheet open with an error; otherwise the monitor joins the end of the list. */
  createMonitor(sheet: SheetPopup): void {
    const index = this.state.popups.indexOf(sheet)
    // A tap that reached a stale frame (none drawn since the sheet closed) finds no route to act on.
    if (index < 0) return
    const name = this.state.fields.monitorName.trim()
    if (name === '') {
      sheet.invalid = true
      return
    }
    const id = Math.max(0, ...this.state.monitors.map((m) => m.id)) + 1
    this.state.monitors.push({id, name, paused: false, favourite: false})
    this.state.popups.splice(index, 1)
    if (this.state.focusedField === 'monitorName') this.unfocus()
    this.diagnostics.debugPrint(`Created monitor ${id} (${name})`)
  }

  syncNow(): void {
    this.diagnostics.startRequest('POST /api/sync', FETCH_MONITORS_MS)
  }

  toggleAlerts(): void {
    this.state.alertsEnabled = !this.state.alertsEnabled
  }

  askDelete(monitor: Monitor): void {
    this.state.popups.push({kind: 'deleteMonitor', monitorId: monitor.id, instance: mintInstance(this.state)})
  }

  dismissPopup(): void {
    const popped = this.state.popups.pop()
    const field = popped === undefined ? null : fieldOf(popped)
    if (field !== null && this.state.focusedField === field) this.unfocus()
  }

  toggleFavourite(monitor: Monitor): void {
    monitor.favourite = !monitor.favourite
  }

  openRowMenu(monitor: Monitor, at: Point): void {
    this.state.popups.push({kind: 'rowMenu', monitorId: monitor.id, instance: mintInstance(this.state), at})
  }

  /** The row menu's Rename: the menu closes and a dialog opens with the name in an autofocused field. */
  startRename(monitorId: number): void {
    this.dismissPopup()
    const monitor = this.state.monitors.find((m) => m.id === monitorId)
    if (monitor === undefined) return
    this.state.popups.push({kind: 'renameMonitor', monitorId, instance: mintInstance(this.state)})
    this.state.fields.rename = monitor.name
    this.focus('rename')
  }

  /** Save in the rename dialog: a blank name keeps the old one. */
  saveRename(monitorId: number): void {
    const name = this.state.fields.rename.trim()
    const monitor = this.state.monitors.find((m) => m.id === monitorId)
    if (monitor !== undefined && name !== '') monitor.name = name
    this.dismissPopup()
    this.unfocus()
  }

  /** The row menu's Duplicate: a copy named "<name> copy" right below the original. */
  duplicateMonitor(monitorId: number): void {
    this.dismissPopup()
    const index = this.state.monitors.findIndex((m) => m.id === monitorId)
    const original = this.state.monitors[index]
    if (original === undefined) return
    const id = Math.max(...this.state.monitors.map((m) => m.id)) + 1
    this.state.monitors.splice(index + 1, 0, {id, name: `${original.name} copy`, paused: original.paused, favourite: false})
    this.diagnostics.debugPrint(`Duplicated monitor ${monitorId} as ${id}`)
  }

  /** A row dropped on another row: it takes that row's place, the rows between shift by one. */
  reorderMonitor(draggedId: number, targetId: number): void {
    const monitors = this.state.monitors
    const from = monitors.findIndex((m) => m.id === draggedId)
    const to = monitors.findIndex((m) => m.id === targetId)
    if (from < 0 || to < 0 || from === to) return
    const [moved] = monitors.splice(from, 1)
    monitors.splice(to, 0, moved!)
  }

  hover(region: string | null): void {
    this.state.hovered = region
  }

  /** Ctrl+S (or Meta+S) on the settings page. */
  saveSettings(): void {
    this.state.snackBar = 'Saved'
    this.diagnostics.debugPrint('Settings saved')
  }

  hideSnackBar(): void {
    this.state.snackBar = null
  }

  deleteMonitor(monitorId: number): void {
    this.state.monitors = this.state.monitors.filter((m) => m.id !== monitorId)
    this.state.popups.pop()
    this.closeMonitor()
    this.diagnostics.debugPrint(`Deleted monitor ${monitorId}`)
  }

  toggleEmailAlerts(): void {
    this.state.settings.emailAlerts = !this.state.settings.emailAlerts
  }

  toggleDarkMode(): void {
    this.state.settings.darkMode = !this.state.settings.darkMode
  }

  toggleAcceptBeta(): void {
    this.state.settings.acceptBeta = !this.state.settings.acceptBeta
  }

  openRegionMenu(): void {
    this.state.popups.push({kind: 'regionMenu', instance: mintInstance(this.state)})
  }

  /** The dropdown's onChanged: the parent keeps its current region unless the new one is a region
   *  it offers (a value outside the items would fail the DropdownButton's assertion) and the plan has. */
  changeRegion(region: string): void {
    if (!(REGIONS as readonly string[]).includes(region)) return
    if (region === 'asia') {
      this.diagnostics.debugPrint('Region asia is not available on this plan')
      this.diagnostics.developerLog(`region ${region} refused by the plan`, 'monitors.settings', LOG_LEVEL.warning)
    } else this.state.settings.region = region
  }

  chooseRegion(region: string): void {
    this.dismissPopup()
    this.changeRegion(region)
  }
}

/** The text field a popup route owns: focus in it goes when the route is popped. */
function fieldOf(popup: Popup): FieldKey | null {
  if (popup.kind === 'renameMonitor') return 'rename'
  if (popup.kind === 'newMonitor') return 'monitorName'
  return null
}
