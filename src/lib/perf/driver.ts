import {TapirError} from '../errors.js'
import type {BrowserControl, Point} from './browser-control.js'
import type {PerfApp} from './perf-app.js'
import type {Platform, SetupEntry, Step, Target, When} from './scenario-types.js'

/** How often and how long a target is looked for on the live screen. */
const RESOLVE_POLL_MS = 100
const RESOLVE_TIMEOUT_MS = 3000
/** Boot ids are polled this often after a hot restart, for at most this long. */
const BOOT_POLL_MS = 100
const BOOT_TIMEOUT_MS = 90_000
const QUIET = {includeSnapshot: 'false'}

export interface Resolve {
  step: number
  verb: string
  phase: 'beforeBegin' | 'inWindow'
  resolveMs: number
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** A setup or step failure: perf_run adds the app's diagnostics and exits 1. */
export class DriveError extends TapirError {
  constructor(message: string) {
    super(message, 'local')
  }
}

const describeTarget = (target: Target): string => {
  switch (target.by) {
    case 'text':
      return `{text: ${JSON.stringify(target.text)}${target.index ? `, index: ${target.index}` : ''}}`
    case 'label':
      return `{label: ${JSON.stringify(target.label)}}`
    case 'key':
      return `{key: ${JSON.stringify(target.key)}}`
    case 'role':
      return `{role: ${target.role}, name: ${JSON.stringify(target.name)}${target.index ? `, index: ${target.index}` : ''}}`
  }
}

/** Drives one scenario's setup and steps against the running app. */
export class ScenarioDriver {
  /** The payload of the last navigate sent, for a failure's diagnostics. */
  lastNavigate: Record<string, string> | undefined

  constructor(
    private readonly app: () => Promise<PerfApp>,
    private readonly browser: BrowserControl,
    private readonly platform: Platform,
  ) {}

  private async call(verb: string, params: Record<string, string>, waitsMs = 0): Promise<Record<string, unknown>> {
    return (await this.app()).callExtension(verb, params, waitsMs)
  }

  async bootId(): Promise<string | undefined> {
    try {
      const answer = await this.call('boot_id', {})
      return typeof answer.bootId === 'string' ? answer.bootId : undefined
    } catch {
      return undefined // restarting: the extension is not registered yet, or the isolate is gone
    }
  }

  /** Hot restart, then wait until the app's tapir answers with a new boot id. */
  async hotRestart(): Promise<void> {
    const before = await this.bootId()
    await (await this.app()).hotRestart()
    const deadline = Date.now() + BOOT_TIMEOUT_MS
    for (;;) {
      const now = await this.bootId()
      if (now !== undefined && now !== before) return
      if (Date.now() > deadline)
        throw new TapirError(`The app did not come back with a new boot id within ${BOOT_TIMEOUT_MS / 1000} s of the hot restart.`, 'local')
      await sleep(BOOT_POLL_MS)
    }
  }

  async runSetup(entries: readonly SetupEntry[], where = 'setup'): Promise<void> {
    for (const [index, entry] of entries.entries()) {
      const at = `${where}[${index}] (${entry.verb})`
      if ('only' in entry && entry.only && !entry.only.includes(this.platform)) continue
      try {
        switch (entry.verb) {
          case 'hot_restart':
            await this.hotRestart()
            break
          case 'wait_for_text': {
            const answer = await this.call('wait_for', {text: entry.text, timeoutMs: String(entry.timeoutMs)}, entry.timeoutMs)
            if (answer.matched !== true) throw new TapirError(`"${entry.text}" did not appear within ${entry.timeoutMs} ms`, 'local')
            break
          }
          case 'wait_for_network_idle':
            await this.call('wait_for_network_idle', {})
            break
          case 'include':
            if (await this.holds(entry.when)) await this.runSetup(entry.setup, `${entry.path}: steps`)
            break
          default:
            await this.runStep(entry as Step, await this.resolveFor(entry as Step))
        }
      } catch (error) {
        if (error instanceof DriveError) throw error
        throw new DriveError(`${at} failed: ${(error as Error).message}`)
      }
    }
  }

  /** Whether an include's `when` holds: waits until its text or unless_text shows, up to its timeout. */
  private async holds(when: When | undefined): Promise<boolean> {
    if (!when) return true
    const deadline = Date.now() + when.timeoutMs
    for (;;) {
      if (when.unlessText !== undefined && (await this.shows(when.unlessText))) return false
      if (when.text !== undefined && (await this.shows(when.text))) return true
      if (Date.now() > deadline) return when.text === undefined
      await sleep(RESOLVE_POLL_MS)
    }
  }

  private async shows(text: string): Promise<boolean> {
    return (await this.call('find', {text})).matched === true
  }

  /** The ref a step acts on, or undefined for a step without a target. */
  async resolveFor(step: Step): Promise<string | undefined> {
    return 'target' in step ? this.resolve(step.target) : undefined
  }

  /** Finds a target on the live screen, retrying while the screen settles. */
  async resolve(target: Target): Promise<string> {
    const deadline = Date.now() + RESOLVE_TIMEOUT_MS
    for (;;) {
      const ref = await this.lookUp(target)
      if (ref !== undefined) return ref
      if (Date.now() > deadline)
        throw new TapirError(`target ${describeTarget(target)} matched nothing within ${RESOLVE_TIMEOUT_MS / 1000} s`, 'local')
      await sleep(RESOLVE_POLL_MS)
    }
  }

  private async lookUp(target: Target): Promise<string | undefined> {
    const found = (answer: Record<string, unknown>): string | undefined =>
      answer.matched === true && typeof answer.ref === 'string' ? answer.ref : undefined
    switch (target.by) {
      case 'text':
        if (target.index === 0) return found(await this.call('find', {text: target.text}))
        try {
          return ((await this.call('find_by_text', {text: target.text, exact: 'true'})).refs as string[] | undefined)?.[target.index]
        } catch (error) {
          throw new TapirError(
            `target ${describeTarget(target)} is found with ext.tapir.find_by_text (an index past 0), and that failed: ${(error as Error).message}`,
            'local',
          )
        }
      case 'label':
        return found(await this.call('find', {semanticsLabel: target.label}))
      case 'key':
        return found(await this.call('find', {key: target.key}))
      case 'role': {
        const answer = await this.call('observe', {roles: target.role, includeEnrichers: 'false', limit: '500'})
        const candidates = ((answer.candidates ?? []) as Array<{ref?: string; role?: string; label?: string}>).filter(
          (c) => c.role === target.role && c.label === target.name,
        )
        return candidates[target.index]?.ref
      }
    }
  }

  /** Where a widget's centre is on the page (the app's geometry, nothing rasterised). */
  private async centreOf(ref: string): Promise<Point> {
    const {rect} = await this.call('screenshot', {ref, geometry: 'true'})
    const {x, y, width, height} = (rect ?? {}) as Record<string, unknown>
    if (typeof x !== 'number' || typeof y !== 'number' || typeof width !== 'number' || typeof height !== 'number') {
      throw new DriveError(`the app gave no position for ${ref}, so no pointer input can be sent to it`)
    }
    return {x: x + width / 2, y: y + height / 2}
  }

  /** One step; `ref` is its resolved target. Every action goes without a snapshot. */
  async runStep(step: Step, ref: string | undefined): Promise<void> {
    switch (step.verb) {
      case 'tap':
        await this.call('tap', {ref: ref!, ...QUIET})
        return
      case 'fill':
      case 'type':
        await this.call(step.verb, {ref: ref!, text: step.text.text, ...QUIET})
        return
      case 'scroll':
        await this.call('scroll', {ref: ref!, dx: String(step.dx), dy: String(step.dy), ...QUIET})
        return
      case 'wheel':
        await this.browser.wheel(await this.centreOf(ref!), {dx: step.dx, dy: step.dy}, step.ticks)
        return
      case 'drag':
        await this.browser.drag(await this.centreOf(ref!), {dx: step.dx, dy: step.dy})
        return
      case 'press_key':
        await this.call('press_key', {key: step.key, ...QUIET})
        return
      case 'navigate':
        this.lastNavigate = {route: step.route, ...QUIET}
        await this.call('navigate', this.lastNavigate)
        return
      case 'resize':
        await this.browser.setViewport({width: step.width, height: step.height})
        return
      case 'wait':
        await sleep(step.ms)
        return
    }
  }

  /** The app's state for a failure message: route, the last navigate sent, 3 newest exceptions. */
  async diagnostics(): Promise<string> {
    const parts: string[] = []
    try {
      const routes = await this.call('get_routes', {})
      parts.push(`route=${String(routes.uri ?? routes.location ?? 'unknown')}`)
    } catch {
      parts.push('route=unknown (the app did not answer)')
    }
    parts.push(`last navigate=${this.lastNavigate ? JSON.stringify(this.lastNavigate) : 'none'}`)
    try {
      const {exceptions} = (await this.call('exceptions', {limit: '3'})) as {exceptions?: Array<{type?: string; message?: string}>}
      const list = (exceptions ?? []).slice(0, 3).map((e) => `${e.type ?? 'error'}: ${String(e.message ?? '').split('\n')[0]}`)
      parts.push(`exceptions=${list.length > 0 ? list.join(' | ') : 'none'}`)
    } catch {
      parts.push('exceptions=unknown')
    }
    // The app's text stays on this one line.
    return `Diagnostics: ${parts.join('; ').replace(/[\r\n]+/g, ' ')}`
  }
}
