import {TapirError} from '../errors.js'
import {isJsonObject, type JsonObject, type Shape} from '../shape.js'
import {VmServiceClient} from './client.js'
import type {Deadline} from './deadline.js'
import {extensionFailure, pageCouldNotRun} from './extension-error.js'
import {instanceRef, type InstanceRef} from './instance-ref.js'
import {isolateAnswer, librariesAnswer, vmAnswer} from './isolate-answers.js'
import {checkAnswer} from './malformed.js'
import {ReloadRejected} from './reload-rejected.js'
import {RpcError} from './rpc-error.js'
import {SLICE_MS, type SlicedWait} from './sliced-waits.js'

type Isolate = {
  id: string
  extensionRPCs: string[]
  rootLibId?: string
  /** found in a restart's window, without the package */ restarting?: boolean
}
type Result = JsonObject

const EXTENSION_PREFIX = 'ext.tapir.'
const DUSK_PREFIX = 'ext.dusk.'

/** How long after a restart a new isolate without tapir's extensions is taken to be still on its
 *  way through main(), and how long one verb waits for them to register. */
const RESTART_WINDOW_MS = 60_000
const RESTART_WAIT_MS = 10_000
const FIRST_FRAME = 'ext.flutter.didSendFirstFrameEvent'
const FIRST_FRAME_POLL_MS = 100
/** DDS's default history size per stream (dds `LoggingRepository`): as much is kept here. */
const HEARD_MAX = 10_000

/** The in-app package an app runs: tapir, or its predecessor Dusk 0.0.1 (`ext.dusk.*`). */
export type AppPackage = 'tapir' | 'dusk'

/** What serves the VM Service: a Dart VM (DDS in front or not), or DWDS in one of its two modes,
 *  told apart by the VM name DWDS gives (docs/dwds-and-vm.md). */
export type DebugService = 'vm' | 'dwds-chrome' | 'dwds-websocket'

function debugServiceOf(vm: Result): DebugService {
  if (vm.name === 'WebSocketDebugProxy') return 'dwds-websocket'
  if (vm.name === 'ChromeDebugProxy') return 'dwds-chrome'
  return 'vm'
}

/** An extension's error handed back as an answer: DWDS in WebSocket mode returns what the page
 *  decoded, and the page hands an extension's error over as `{code, message, data}`. */
function errorAnswer(method: string, answer: Result): RpcError | undefined {
  const {code, message, data} = answer
  if (typeof code !== 'number' || typeof message !== 'string' || !isJsonObject(data)) return undefined
  return new RpcError(method, code, message, data)
}

function isCollected(value: Result): boolean {
  return value.type === 'Sentinel'
}

/** The isolate ids of a getVM answer; anything else in their place is a malformed answer. */
function isolateIds(vm: Result): string[] {
  return (checkAnswer('getVM', vmAnswer, vm).isolates ?? []).map((ref) => ref.id)
}

/** The fields tapir reads from a getIsolate answer, checked. */
function isolateOf(answer: Result, requestedId: string): Isolate {
  const {id, extensionRPCs = [], rootLib} = checkAnswer(`getIsolate(${requestedId})`, isolateAnswer, answer)
  return {id, extensionRPCs, ...(rootLib ? {rootLibId: rootLib.id} : {})}
}

const lists = (isolate: Isolate, prefix: string) => isolate.extensionRPCs.some((name) => name.startsWith(prefix))

/** Which package an isolate lists: tapir wins when both are there; none when neither is. */
export function packageOf(extensionRPCs: readonly string[]): AppPackage | undefined {
  const isolate = {id: '', extensionRPCs: [...extensionRPCs]}
  if (lists(isolate, EXTENSION_PREFIX)) return 'tapir'
  if (lists(isolate, DUSK_PREFIX)) return 'dusk'
  return undefined
}

/** A call tapir's wire would send to an app that runs Dusk 0.0.1: refused before it is sent. */
export class DuskAppRefusal extends TapirError {
  constructor(readonly method: string) {
    super(`${method} needs the tapir package, but the app runs Dusk 0.0.1 (ext.dusk.*), which has no such call.`, 'usage')
  }
}

/** The running app behind a VM Service: finds the isolate tapir lives in and calls into it.
 *  Every call of one verb shares that verb's deadline. */
export class AppConnection {
  private isolate: Isolate | undefined
  private service: DebugService | undefined
  /** Services other clients registered (`flutter run`'s hotRestart, ...): name → method. */
  private services: Map<string, string> | undefined
  /** The last restart tapir did or saw, and whether a verb already waited out its window. */
  private restart: {at: number; waited: boolean} | undefined
  /** What each stream this connection listens to has carried: DDS's history of it, then live. */
  private readonly heard = new Map<string, JsonObject[]>()

  constructor(
    readonly client: VmServiceClient,
    options: {restartedAt?: number} = {},
  ) {
    if (options.restartedAt !== undefined) this.restart = {at: options.restartedAt, waited: false}
  }

  /** `restartedAt`: when the session last saw a restart, so the first verb after it waits for
   *  tapir's extensions on the new isolate instead of calling before they are back. */
  static async open(uri: string, timeoutMs: number, options: {restartedAt?: number} = {}): Promise<AppConnection> {
    return new AppConnection(await VmServiceClient.connect(uri, {timeoutMs}), options)
  }

  /** A restart replaced (or is replacing) the isolate: forget it, and let the next call wait for
   *  tapir's extensions on the new one. */
  sawRestart(at = Date.now()): void {
    this.restart = {at, waited: false}
    this.isolate = undefined
  }

  /** Calls `ext.tapir.<verb>`; every param goes as a string, as the VM hands them to Dart. The
   *  answer is checked against `shape`, what the caller reads of it: a wrong one is a malformed
   *  answer naming the field. An app on Dusk 0.0.1 is never sent it (DuskAppRefusal, exit 1):
   *  a Dusk call goes through `callDusk` with 0.0.1's own params. `sliced`: how a call that waits
   *  in the app is asked for in slices where one call may not take that long (the verb says). */
  async callExtension<T>(
    verb: string,
    params: Record<string, string>,
    shape: Shape<T>,
    deadline: Deadline,
    sliced?: SlicedWait,
  ): Promise<T> {
    const method = EXTENSION_PREFIX + verb
    const answer =
      sliced && sliced.totalMs > SLICE_MS && (await this.debugService(deadline.setup)) === 'dwds-websocket'
        ? await this.inSlices(sliced, deadline)
        : await this.tapirCall(method, params, deadline)
    return checkAnswer(method, shape, answer)
  }

  /** What serves the app's VM Service, read from getVM once per connection. */
  async debugService(deadline: Deadline): Promise<DebugService> {
    if (this.service === undefined) await this.resolveIsolate(deadline)
    return this.service ?? 'vm'
  }

  private tapirCall(method: string, params: Record<string, string>, deadline: Deadline): Promise<Result> {
    return this.withIsolate(method, deadline, (isolate) => {
      if (packageOf(isolate.extensionRPCs) === 'dusk') throw new DuskAppRefusal(method)
      return this.client.call(method, {...params, isolateId: isolate.id}, deadline)
    })
  }

  /** A wait longer than DWDS lets one call take, as a series of shorter calls of the same wait
   *  until the condition holds or the caller's time is up. */
  private async inSlices(wait: SlicedWait, deadline: Deadline): Promise<Result> {
    const started = Date.now()
    let call = wait.first
    let first: Result | undefined
    for (;;) {
      const left = wait.totalMs - (Date.now() - started)
      const slice = Math.max(0, Math.min(SLICE_MS, left))
      const last = left - slice <= 0
      let answer: Result
      try {
        answer = await this.tapirCall(EXTENSION_PREFIX + call.ext, {...call.params, [call.param]: String(slice)}, deadline)
      } catch (error) {
        if (!last && call.pendingError?.(error)) continue
        throw error
      }
      first ??= answer
      if (last || !call.pending(answer)) return wait.finish(first, answer, Date.now() - started)
      call = wait.next
    }
  }

  /** Calls `ext.dusk.<method>` of an app on Dusk 0.0.1 with 0.0.1's params, every one a string. */
  async callDusk<T>(name: string, params: Record<string, string>, shape: Shape<T>, deadline: Deadline): Promise<T> {
    const method = DUSK_PREFIX + name
    const answer = await this.withIsolate(method, deadline, (isolate) => {
      if (packageOf(isolate.extensionRPCs) !== 'dusk')
        throw new TapirError(`The app does not run Dusk 0.0.1: ${method} is not sent to it.`, 'usage')
      return this.client.call(method, {...params, isolateId: isolate.id}, deadline)
    })
    return checkAnswer(method, shape, answer)
  }

  /** The package the app runs, read from its isolate's extensionRPCs once per connection
   *  (again only after a hot restart replaced the isolate); undefined when it lists neither. */
  async appPackage(deadline: Deadline): Promise<AppPackage | undefined> {
    const isolate = this.isolate ?? (await this.resolveIsolate(deadline.setup))
    return isolate.restarting ? undefined : packageOf(isolate.extensionRPCs)
  }

  /** The VM `evaluate` RPC in the app's root library: the value's reference, or the error. */
  async evaluate(expression: string, deadline: Deadline): Promise<InstanceRef> {
    const answer = await this.withIsolate('evaluate', deadline, (isolate) => {
      if (!isolate.rootLibId) throw new TapirError('The app isolate has no root library to evaluate in.', 'app')
      return this.client.call('evaluate', {isolateId: isolate.id, targetId: isolate.rootLibId, expression}, deadline)
    })
    return checkAnswer('evaluate', instanceRef, answer)
  }

  /** Whether the isolate found is a restart's new one that has not registered a package yet
   *  (within the window after a restart tapir saw). */
  async restarting(deadline: Deadline): Promise<boolean> {
    return (this.isolate ?? (await this.resolveIsolate(deadline.setup))).restarting === true
  }

  /** The extensions the app's isolate lists (read once per connection, as the package is). */
  async extensionRPCs(deadline: Deadline): Promise<readonly string[]> {
    return (this.isolate ?? (await this.resolveIsolate(deadline.setup))).extensionRPCs
  }

  /** Calls one of Flutter's own `ext.flutter.*` extensions, every param a string. */
  async callFlutter<T>(method: string, params: Record<string, string>, shape: Shape<T>, deadline: Deadline): Promise<T> {
    if (!method.startsWith('ext.flutter.')) throw new TapirError(`${method} is not one of Flutter's own extensions.`, 'usage')
    const answer = await this.withIsolate(method, deadline, (isolate) =>
      this.client.call(method, {...params, isolateId: isolate.id}, deadline),
    )
    return checkAnswer(method, shape, answer)
  }

  /** The VM `evaluate` RPC in the library the isolate lists under `uri` (a Flutter library whose
   *  imports see the API the expression calls). */
  async evaluateInLibrary(uri: string, expression: string, deadline: Deadline): Promise<InstanceRef> {
    const answer = await this.withIsolate('evaluate', deadline, async (isolate) => {
      const found = await this.client.call('getIsolate', {isolateId: isolate.id}, deadline)
      const {libraries = []} = checkAnswer(`getIsolate(${isolate.id})`, librariesAnswer, found)
      const library = libraries.find((entry) => entry.uri === uri)
      if (!library) throw new TapirError(`The app's isolate lists no library ${uri} to evaluate in.`, 'app')
      return this.client.call('evaluate', {isolateId: isolate.id, targetId: library.id, expression}, deadline)
    })
    return checkAnswer('evaluate', instanceRef, answer)
  }

  /** The events of a VM Service stream (Logging, Stdout, Stderr, Extension) this connection has
   *  heard, oldest first: listening first gets DDS's history of it (dart-lang/sdk pkg/dds
   *  stream_manager.dart `streamListen` → `LoggingRepository.sendHistoricalLogs`, sent before the
   *  listen's reply), then the events as they come. Without DDS there is no history. A stream the
   *  VM does not offer (Stderr on some embedders) is empty. */
  async streamEvents(streamId: string): Promise<readonly JsonObject[]> {
    const known = this.heard.get(streamId)
    if (known) return known
    const events: JsonObject[] = []
    this.heard.set(streamId, events)
    try {
      await this.client.listen(streamId, (event) => {
        events.push(event)
        if (events.length > HEARD_MAX) events.shift()
      })
    } catch (error) {
      if (!(error instanceof RpcError)) {
        this.heard.delete(streamId)
        throw error
      }
    }
    return events
  }

  /** Whether DDS fronts the VM Service, so streams come with their history: DDS answers
   *  `getDartDevelopmentServiceVersion` (dart-lang/sdk pkg/dds dds_protocol.md), a VM or DWDS
   *  without it does not know the method. */
  async keepsStreamHistory(deadline: Deadline): Promise<boolean> {
    try {
      await this.client.call('getDartDevelopmentServiceVersion', {}, deadline)
      return true
    } catch (error) {
      if (error instanceof RpcError) return false
      throw error
    }
  }

  /** The VM's timeline clock in microseconds (service.md `getVMTimelineMicros`), the clock the
   *  engine stamps frame timings with; undefined where the debug service has none (DWDS answers
   *  it "not supported"). */
  async timelineMicros(deadline: Deadline): Promise<number | undefined> {
    try {
      const answer = await this.client.call('getVMTimelineMicros', {}, deadline)
      return typeof answer.timestamp === 'number' ? answer.timestamp : undefined
    } catch (error) {
      if (error instanceof RpcError) return undefined
      throw error
    }
  }

  /** The operating system the VM says it runs on (`getVM`'s `operatingSystem`). */
  async operatingSystem(deadline: Deadline): Promise<string | undefined> {
    const vm = await this.client.call('getVM', {}, deadline)
    return typeof vm.operatingSystem === 'string' ? vm.operatingSystem : undefined
  }

  /** Whether an isolate of the app has registered tapir's (or Dusk 0.0.1's) extensions. */
  async hasTapir(deadline: Deadline): Promise<boolean> {
    return (await this.appPackage(deadline)) !== undefined
  }

  /** Hot restart through the `hotRestart` service `flutter run` registered (its `sN.` name is
   *  learned from the Service stream, never assumed). The isolate is replaced. */
  async hotRestart(deadline?: Deadline): Promise<void> {
    await this.callToolService('hotRestart', 'Hot restart', {}, deadline)
    this.sawRestart()
  }

  /** Hot reload through the `reloadSources` service `flutter run` registered: it recompiles and
   *  reassembles the app (the VM's own reloadSources would skip the compile step). */
  async reloadSources(deadline: Deadline): Promise<void> {
    const isolate = this.isolate ?? (await this.resolveIsolate(deadline.setup))
    await this.callToolService('reloadSources', 'Hot reload', {isolateId: isolate.id}, deadline)
  }

  /** The method a service registered by another client is called by, or undefined when none is. */
  async serviceMethod(service: 'reloadSources' | 'hotRestart'): Promise<string | undefined> {
    return (await this.registeredServices()).get(service)
  }

  /** Whether DWDS answers for the app (a web app): its VM says targetCPU Web, hostCPU DWDS
   *  (webdev chrome_proxy_service.dart and web_socket_proxy_service.dart, `getVM`). */
  async runsOnWeb(deadline: Deadline): Promise<boolean> {
    const vm = await this.client.call('getVM', {}, deadline)
    return vm.targetCPU === 'Web'
  }

  /** Drops the isolate found before: after a restart another runs tapir. */
  forgetIsolate(): void {
    this.isolate = undefined
  }

  /** The ids of the isolates the VM runs now (a hot restart replaces them). */
  async isolateIdsNow(deadline: Deadline): Promise<string[]> {
    return isolateIds(await this.client.call('getVM', {}, deadline))
  }

  /** Whether `flutter run` registered this service on the app's VM Service. */
  async offers(service: 'reloadSources' | 'hotRestart'): Promise<boolean> {
    return (await this.registeredServices()).has(service)
  }

  private async callToolService(
    service: string,
    what: 'Hot reload' | 'Hot restart',
    params: Record<string, unknown>,
    deadline?: Deadline,
  ): Promise<void> {
    const method = (await this.registeredServices()).get(service)
    if (!method) {
      throw new TapirError(
        `The app offers no ${service} service: only an app run by \`flutter run\` (or \`tapir start\`) can be ${what === 'Hot reload' ? 'hot reloaded' : 'hot restarted'}. Start it that way.`,
        'local',
      )
    }
    try {
      await this.client.call(method, params, deadline)
    } catch (error) {
      // flutter_tools answers a failed reload with -32000 "Unable to reload sources"; the compiler's
      // own words, when the tool sends them, are in data.details.
      if (error instanceof RpcError) throw new ReloadRejected(what, [error.rpcMessage.trim(), error.details].filter(Boolean).join('\n'))
      throw error
    }
  }

  private async registeredServices(): Promise<Map<string, string>> {
    if (this.services) return this.services
    const services = new Map<string, string>()
    await this.client.listen('Service', (event) => {
      if (event.kind === 'ServiceRegistered' && typeof event.service === 'string' && typeof event.method === 'string')
        services.set(event.service, event.method)
      if (event.kind === 'ServiceUnregistered' && typeof event.service === 'string') services.delete(event.service)
    })
    // The VM and DDS announce the services before the listen reply; DWDS with no DDS just after
    // it. One more round trip comes back behind those announcements.
    await this.client.call('getVersion')
    return (this.services = services)
  }

  close(): void {
    this.client.close()
  }

  /** Runs a call against the tapir isolate; after a hot restart (a Collected sentinel) it
   *  finds the new isolate and tries once more. */
  private async withIsolate(method: string, deadline: Deadline, call: (isolate: Isolate) => Promise<Result>): Promise<Result> {
    for (let attempt = 0; ; attempt++) {
      const isolate = this.isolate ?? (await this.resolveIsolate(deadline.setup, method))
      if (isolate.restarting && (method.startsWith(EXTENSION_PREFIX) || method.startsWith(DUSK_PREFIX))) throw this.stillRestarting(method)
      let result: Result
      try {
        result = await call(isolate)
      } catch (error) {
        if (!(error instanceof RpcError) || !method.startsWith('ext.')) throw error
        // DWDS in WebSocket mode keeps its isolate and its extension list across a hot restart, so
        // after one someone else did the call reached the new page before tapir was back in it:
        // the page's failure says so, and the next try waits for the page's registration.
        if (attempt === 0 && this.service === 'dwds-websocket' && pageCouldNotRun(error)) {
          this.sawRestart()
          continue
        }
        throw extensionFailure(method, error)
      }
      const failed = method.startsWith('ext.') && !isCollected(result) ? errorAnswer(method, result) : undefined
      if (failed) throw extensionFailure(method, failed)
      if (!isCollected(result)) return result
      this.sawRestart()
      if (attempt > 0) throw new TapirError(`The app's isolate went away during ${method} (hot restart in progress?). Try again.`, 'app')
    }
  }

  /** The isolate tapir (else Dusk 0.0.1) runs in, pinned for the connection. After a restart, an
   *  isolate without the package is waited on (bounded) until `method`, or any of the package's
   *  extensions, registers: such an isolate is never pinned, so a later call looks again. */
  private async resolveIsolate(deadline: Deadline, method?: string): Promise<Isolate> {
    let isolates = await this.isolates(deadline)
    const registered = (found: Isolate[]) =>
      found.some((isolate) => (method?.startsWith('ext.') ? isolate.extensionRPCs.includes(method) : packageOf(isolate.extensionRPCs)))
    const restart = this.restartUnderWay()
    // DWDS in WebSocket mode never clears the list, so it cannot tell the new page's registration.
    const listed = this.service !== 'dwds-websocket' && registered(isolates)
    if (!listed && restart) {
      const outcome = (await this.firstFrameWithoutPackage(isolates, deadline))
        ? 'none'
        : restart.waited
          ? 'timeout'
          : await this.extensionsAdded(deadline, method, registered)
      if (outcome === 'added') isolates = await this.isolates(deadline)
      // The new isolate drew its first frame with no package: its main() is done, so the app
      // runs none, and is driven zero-install at once.
      else if (outcome === 'none') this.restart = undefined
      else restart.waited = true
    }
    const tapir = isolates.find((isolate) => lists(isolate, EXTENSION_PREFIX))
    if (tapir) return (this.isolate = tapir)
    const dusk = isolates.find((isolate) => lists(isolate, DUSK_PREFIX))
    if (dusk) return (this.isolate = dusk)
    // No isolate runs tapir: the first, unpinned, so the VM's own -32601 explains it.
    const first = isolates[0]
    if (first) return this.restartUnderWay() ? {...first, restarting: true} : first
    throw new TapirError('The VM Service reports no running isolate; is the Flutter app fully booted?', 'app')
  }

  /** The restart tapir last made, while its isolate may still be on its way. */
  private restartUnderWay(): {at: number; waited: boolean} | undefined {
    return this.restart !== undefined && Date.now() - this.restart.at < RESTART_WINDOW_MS ? this.restart : undefined
  }

  /** The app's live isolates, as getVM lists them. */
  private async isolates(deadline: Deadline): Promise<Isolate[]> {
    const vm = await this.client.call('getVM', {}, deadline)
    this.service = debugServiceOf(vm)
    const isolates: Isolate[] = []
    for (const id of isolateIds(vm)) {
      const answer = await this.client.call('getIsolate', {isolateId: id}, deadline)
      if (!isCollected(answer)) isolates.push(isolateOf(answer, id))
    }
    return isolates
  }

  /** Waits, bounded, for the VM's (or DWDS's) ServiceExtensionAdded of `method` (any tapir or Dusk
   *  extension without one) on the Isolate stream: 'added' once it came, 'none' once the new
   *  isolate drew its first frame without a package, 'timeout' when neither came in time. */
  private async extensionsAdded(
    deadline: Deadline,
    method: string | undefined,
    registered: (found: Isolate[]) => unknown,
  ): Promise<'added' | 'none' | 'timeout'> {
    let settle: (outcome: 'added' | 'none' | 'timeout') => void = () => {}
    const outcome = new Promise<'added' | 'none' | 'timeout'>((resolve) => (settle = resolve))
    const timer = setTimeout(() => settle('timeout'), Math.min(RESTART_WAIT_MS, deadline.remainingMs()))
    let polling = true
    const wanted = (name: string) =>
      method?.startsWith('ext.') ? name === method : name.startsWith(EXTENSION_PREFIX) || name.startsWith(DUSK_PREFIX)
    try {
      await this.client.listen('Isolate', (event) => {
        if (event.kind === 'ServiceExtensionAdded' && typeof event.extensionRPC === 'string' && wanted(event.extensionRPC)) settle('added')
      })
      // It may have registered between the first look and the listen: in WebSocket mode, where
      // the list cannot tell, boot_id answering says the new page has registered tapir (last).
      if (this.service === 'dwds-websocket' ? await this.bootIdAnswers(deadline) : registered(await this.isolates(deadline)))
        settle('added')
      // The first frame has no event of its own on a stream tapir can rely on: asked every poll.
      void (async () => {
        while (polling) {
          await new Promise((resolve) => setTimeout(resolve, FIRST_FRAME_POLL_MS))
          if (polling && (await this.firstFrameWithoutPackage(await this.isolates(deadline).catch(() => []), deadline))) settle('none')
        }
      })()
      return await outcome
    } finally {
      polling = false
      clearTimeout(timer)
    }
  }

  /** Whether the app's isolate lists no package yet answers `ext.flutter.didSendFirstFrameEvent`
   *  with 'true' (widgets/binding.dart `initServiceExtensions`: `_needToReportFirstFrame`): runApp
   *  has drawn a frame, and `tapir install` puts TapirPlugin.install() before runApp, so a package
   *  would have registered by now. */
  private async firstFrameWithoutPackage(isolates: readonly Isolate[], deadline: Deadline): Promise<boolean> {
    const first = isolates[0]
    if (first === undefined || isolates.some((isolate) => packageOf(isolate.extensionRPCs) !== undefined)) return false
    if (!first.extensionRPCs.includes(FIRST_FRAME)) return false
    try {
      const answer = await this.client.call(FIRST_FRAME, {isolateId: first.id}, deadline)
      return answer.enabled === 'true'
    } catch {
      return false
    }
  }

  private async bootIdAnswers(deadline: Deadline): Promise<boolean> {
    const isolate = (await this.isolates(deadline)).find((found) => found.extensionRPCs.includes(`${EXTENSION_PREFIX}boot_id`))
    if (!isolate) return false
    try {
      const answer = await this.client.call(`${EXTENSION_PREFIX}boot_id`, {isolateId: isolate.id}, deadline)
      return typeof answer.bootId === 'string'
    } catch {
      return false
    }
  }

  private stillRestarting(method: string): TapirError {
    const seconds = Math.round((Date.now() - (this.restart?.at ?? Date.now())) / 1000)
    return new TapirError(
      `The app restarted ${seconds} s ago and its new isolate has not registered ${method} yet: its main() may still be on its way to TapirPlugin.install(). Try again in a moment; \`tapir logs\` shows whether it failed to start.`,
      'app',
    )
  }
}
