import type {Diagnostics} from './diagnostics.js'
import {showShell} from './router.js'
import {mintInstance, type AppState, type Monitor} from './state.js'
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

  focus(field: FieldKey): void {
    this.state.focusedField = field
  }

  /** `userUpdateTextEditingValue`: the field's formatters decide what the controller keeps. */
  enterText(field: FieldKey, text: string): void {
    this.state.fields[field] = FORMATTERS[field](text)
  }

  signIn(): void {
    const {email, password} = this.state.fields
    if (email.trim() === '' || password.length < MIN_PASSWORD_LENGTH) {
      this.state.signInError = true
      this.diagnostics.debugPrint('Sign-in refused: email or password missing')
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

  newMonitor(): void {
    this.diagnostics.debugPrint('New monitor: form not available in this build')
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
    this.state.popups.pop()
  }

  deleteMonitor(monitorId: number): void {
    this.state.monitors = this.state.monitors.filter(m => m.id !== monitorId)
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

  /** The dropdown's onChanged: the parent keeps its current region when the plan lacks the new one. */
  changeRegion(region: string): void {
    if (region === 'asia') this.diagnostics.debugPrint('Region asia is not available on this plan')
    else this.state.settings.region = region
  }

  chooseRegion(region: string): void {
    this.dismissPopup()
    this.changeRegion(region)
  }
}
