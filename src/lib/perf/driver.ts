import {messageOf, TapirError} from '../errors.js'
import {boolean, list, string, type Shape} from '../shape.js'
import {waitForSlices, type Slicer} from '../vm/sliced-waits.js'
import {
  answer,
  anyAnswer,
  bootAnswer,
  exceptionsAnswer,
  findAnswer,
  geometryAnswer,
  observeAnswer,
  routesAnswer,
} from '../vm/tapir-answers.js'
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

const waitAnswer = answer({matched: boolean})
const refsAnswer = answer({refs: list(string)})

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

  private async call<T>(verb: string, params: Record<string, string>, shape: Shape<T>, waitsMs = 0, slices?: Slicer): Promise<T> {
    return (await this.app()).callExtension(verb, params, shape, waitsMs, slices)
  }

  async bootId(): Promise<string | undefined> {
    try {
      return (await this.call('boot_id', {}, bootAnswer)).bootId
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
            const params = {text: entry.text, timeoutMs: String(entry.timeoutMs)}
            const answer = await this.call('wait_for', params, waitAnswer, entry.timeoutMs, waitForSlices(entry.timeoutMs))
            if (!answer.matched) throw new TapirError(`"${entry.text}" did not appear within ${entry.timeoutMs} ms`, 'local')
            break
          }
          case 'wait_for_network_idle':
            await this.call('wait_for_network_idle', {}, anyAnswer)
            break
          case 'include':
            if (await this.holds(entry.when)) await this.runSetup(entry.setup, `${entry.path}: steps`)
            break
          default:
            await this.runStep(entry, await this.resolveFor(entry))
        }
      } catch (error) {
        if (error instanceof DriveError) throw error
        throw new DriveError(`${at} failed: ${messageOf(error)}`)
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
    return (await this.call('find', {text}, findAnswer)).matched
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
    const found = async (query: Record<string, string>): Promise<string | undefined> => {
      const {matched, ref} = await this.call('find', query, findAnswer)
      return matched ? (ref ?? undefined) : undefined
    }
    switch (target.by) {
      case 'text':
        if (target.index === 0) return found({text: target.text})
        try {
          return (await this.call('find_by_text', {text: target.text, exact: 'true'}, refsAnswer)).refs[target.index]
        } catch (error) {
          throw new TapirError(
            `target ${describeTarget(target)} is found with ext.tapir.find_by_text (an index past 0), and that failed: ${messageOf(error)}`,
            'local',
          )
        }
      case 'label':
        return found({semanticsLabel: target.label})
      case 'key':
        return found({key: target.key})
      case 'role': {
        const {candidates} = await this.call('observe', {roles: target.role, includeEnrichers: 'false', limit: '500'}, observeAnswer)
        return candidates.filter((c) => c.role === target.role && c.label === target.name)[target.index]?.ref
      }
    }
  }

  /** Where a widget's centre is on the page (the app's geometry, nothing rasterised). */
  private async centreOf(ref: string): Promise<Point> {
    const {rect} = await this.call('screenshot', {ref, geometry: 'true'}, geometryAnswer)
    if (!rect) throw new DriveError(`the app gave no position for ${ref}, so no pointer input can be sent to it`)
    return {x: rect.x + rect.width / 2, y: rect.y + rect.height / 2}
  }

  /** One step; `ref` is its resolved target. Every action goes without a snapshot. */
  async runStep(step: Step, ref: string | undefined): Promise<void> {
    const target = (): string => {
      if (ref === undefined) throw new DriveError(`${step.verb} has no resolved target`)
      return ref
    }
    switch (step.verb) {
      case 'tap':
        await this.call('tap', {ref: target(), ...QUIET}, anyAnswer)
        return
      case 'fill':
      case 'type':
        await this.call(step.verb, {ref: target(), text: step.text.text, ...QUIET}, anyAnswer)
        return
      case 'scroll':
        await this.call('scroll', {ref: target(), dx: String(step.dx), dy: String(step.dy), ...QUIET}, anyAnswer)
        return
      case 'wheel':
        await this.browser.wheel(await this.centreOf(target()), {dx: step.dx, dy: step.dy}, step.ticks)
        return
      case 'drag':
        await this.browser.drag(await this.centreOf(target()), {dx: step.dx, dy: step.dy})
        return
      case 'press_key':
        await this.call('press_key', {key: step.key, ...QUIET}, anyAnswer)
        return
      case 'navigate':
        this.lastNavigate = {route: step.route, ...QUIET}
        await this.call('navigate', this.lastNavigate, anyAnswer)
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
      const routes = await this.call('get_routes', {}, routesAnswer)
      parts.push(`route=${routes.uri ?? routes.location ?? 'unknown'}`)
    } catch {
      parts.push('route=unknown (the app did not answer)')
    }
    parts.push(`last navigate=${this.lastNavigate ? JSON.stringify(this.lastNavigate) : 'none'}`)
    try {
      const {exceptions} = await this.call('exceptions', {limit: '3'}, exceptionsAnswer)
      const list = exceptions.slice(0, 3).map((e) => `${e.type ?? 'error'}: ${(e.message ?? '').split('\n')[0]}`)
      parts.push(`exceptions=${list.length > 0 ? list.join(' | ') : 'none'}`)
    } catch {
      parts.push('exceptions=unknown')
    }
    // The app's text stays on this one line.
    return `Diagnostics: ${parts.join('; ').replace(/[\r\n]+/g, ' ')}`
  }
}
