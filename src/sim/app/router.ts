import {mintInstance, type AppState, type Branch, type Shell} from './state.js'

/** The Router's current location (go_router's `uri`): what navigate verifies and magicRoute shows. */
export function locationOf(state: AppState): string {
  if (state.root.kind === 'login') return '/login'
  const {shell} = state.root
  if (shell.branch === 'settings') return '/settings'
  if (shell.branch === 'accessibility') return '/accessibility'
  return shell.detail ? `/monitors/${shell.detail.monitorId}` : '/monitors'
}

/** Paths the router redirects before building anything. */
const REDIRECTS: Readonly<Record<string, string>> = {'/admin': '/login'}

export type GoOutcome = {readonly location: string} | {readonly unknown: string}

/** `router.go(path)`: replaces the page stack to show `path`, after redirects; an unknown path changes nothing. */
export function go(state: AppState, path: string): GoOutcome {
  const target = REDIRECTS[path] ?? path
  if (target === '/login') {
    if (state.root.kind !== 'login') replaceRoot(state, {kind: 'login', instance: mintInstance(state)})
    return {location: locationOf(state)}
  }
  if (target === '/settings' || target === '/accessibility') {
    shellFor(state).branch = target === '/settings' ? 'settings' : 'accessibility'
    return {location: locationOf(state)}
  }
  if (target === '/monitors') {
    const shell = shellFor(state)
    shell.branch = 'monitors'
    shell.detail = null
    return {location: locationOf(state)}
  }
  const detail = /^\/monitors\/(\d+)$/.exec(target)
  const monitorId = detail ? Number(detail[1]) : NaN
  if (state.monitors.some((m) => m.id === monitorId)) {
    const shell = shellFor(state)
    shell.branch = 'monitors'
    if (shell.detail?.monitorId !== monitorId) shell.detail = {monitorId, instance: mintInstance(state)}
    return {location: locationOf(state)}
  }
  return {unknown: target}
}

export function showShell(state: AppState, branch: Branch): Shell {
  const shell = shellFor(state)
  shell.branch = branch
  return shell
}

function shellFor(state: AppState): Shell {
  if (state.root.kind === 'shell') return state.root.shell
  const shell: Shell = {
    instance: mintInstance(state),
    branch: 'monitors',
    monitorsPage: mintInstance(state),
    settingsPage: mintInstance(state),
    detail: null,
  }
  replaceRoot(state, {kind: 'shell', shell})
  return shell
}

function replaceRoot(state: AppState, root: AppState['root']): void {
  state.root = root
  state.popups = []
  state.focusedField = null
  state.focusedControl = null
  state.selectedAll = false
  state.hovered = null
  state.snackBar = null
}
