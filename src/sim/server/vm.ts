import type {DeveloperEvent, SimApp} from '../app-contract.js'
import {DUSK_EXTENSIONS} from '../dusk/handlers.js'
import {streamEventsOf} from './developer-events.js'
import {WEBSOCKET_CALL_CAP_MS} from './dwds-websocket.js'
import type {WireError} from './errors.js'
import {isolateEvent, pauseEvent, serviceEvent, streamNotify, type SimEvent} from './events.js'
import {noFaults, watchFaults, type SimFaults} from './faults.js'
import {FlutterFramework} from './flutter-framework.js'
import {SimIsolate} from './isolate.js'

/**
 * 'vm': a Dart VM's own service. 'dds': the same behind a Dart Development Service. 'dwds': the
 * debug service of a Flutter web app (Dart Web Debug Service, not a Dart VM) behind DDS, as
 * `flutter run -d chrome` runs it (DWDS's Chrome proxy). 'dwds-direct': DWDS with no DDS
 * (`flutter run --no-dds`). 'dwds-websocket': DWDS in WebSocket mode behind DDS, as `flutter run
 * -d web-server` runs it (docs/dwds-and-vm.md).
 */
export type SimMode = 'vm' | 'dds' | 'dwds' | 'dwds-direct' | 'dwds-websocket'

/** The in-app package the app registers: tapir (`ext.tapir.*`), its predecessor Dusk 0.0.1
 *  (`ext.dusk.*`), both at once, or none (a debug app with only Flutter's own extensions). */
export type SimPackage = 'tapir' | 'dusk' | 'both' | 'none'

/** DDS's default log history size, per stream. */
const DDS_HISTORY_SIZE = 10_000

export type ForwardedReply = {result: unknown} | {error: WireError}

/** A connected client, as the VM sees it: a name for its services, its stream subscriptions. */
export interface Peer {
  readonly name: string
  readonly streams: Set<string>
  /** Registered service name → alias. */
  readonly services: Map<string, string>
  send(text: string): void
  /** Sends a request for one of this client's registered services and waits for its reply. */
  forward(service: string, params: Record<string, unknown>): Promise<ForwardedReply>
}

export interface SimVmOptions {
  mode: SimMode
  app: SimApp
  strictParams: boolean
  faults: Partial<SimFaults>
  package?: SimPackage
  /** WebSocket mode: how long DWDS waits for the page's answer to an extension call. */
  callCapMs?: number
  /** DWDS has an expression compiler (false: `--no-web-enable-expression-evaluation`). */
  expressionCompiler?: boolean
  /** After a hot restart, how long the new isolate's main() takes to register the app's extensions. */
  restartRegistrationMs?: number
}

/** The VM behind the sockets: one UI isolate running the app, the connected clients, the faults. */
export class SimVm {
  readonly mode: SimMode
  /** A web app's debug service (DWDS): isolate "1", no isolate groups, web-shaped objects. */
  readonly web: boolean
  /** A Dart Development Service stands in front and is what clients talk to. */
  readonly dds: boolean
  /** DWDS in WebSocket mode: no Chrome, extension calls capped, no evaluate. */
  readonly websocket: boolean
  readonly callCapMs: number
  readonly expressionCompiler: boolean
  readonly restartRegistrationMs: number
  readonly app: SimApp
  readonly strictParams: boolean
  readonly package: SimPackage
  readonly faults: SimFaults
  readonly violations: string[] = []
  readonly requests: Array<{method: string; params: Record<string, unknown>}> = []
  readonly startTime = Date.now()
  isolate: SimIsolate
  framework = new FlutterFramework()
  private readonly peers = new Set<Peer>()
  private held: Array<(resumed: boolean) => void> = []
  private readonly sleepers = new Set<() => void>()
  private closed = false
  /** What DDS replays to a new listener of Logging, Stdout, Stderr and Extension. */
  private readonly history = new Map<string, SimEvent[]>()
  private readonly stopListening: () => void
  /** DWDS's own id counter (`createId`), for the objects it makes up (an `@Error`). */
  private dwdsIds = 0
  /** How often the page has loaded (DWDS's WebSocket mode keeps its isolate across them). */
  private pageLoads = 0

  constructor(options: SimVmOptions) {
    this.mode = options.mode
    this.web = options.mode === 'dwds' || options.mode === 'dwds-direct' || options.mode === 'dwds-websocket'
    this.dds = options.mode === 'dds' || options.mode === 'dwds' || options.mode === 'dwds-websocket'
    this.websocket = options.mode === 'dwds-websocket'
    this.callCapMs = options.callCapMs ?? WEBSOCKET_CALL_CAP_MS
    this.expressionCompiler = options.expressionCompiler ?? true
    this.restartRegistrationMs = options.restartRegistrationMs ?? 0
    this.isolate = this.newIsolate()
    this.app = options.app
    this.strictParams = options.strictParams
    this.package = options.package ?? 'tapir'
    this.faults = watchFaults({...noFaults, ...options.faults}, (before) => this.faultsChanged(before))
    for (const method of [...FlutterFramework.extensions(this.web), ...this.tapirExtensions()]) this.isolate.register(method)
    this.stopListening = this.app.onDeveloperEvent?.((event) => this.developerEvent(event)) ?? (() => {})
  }

  /** The events a stream's new listener is first sent: DDS's history of it (empty without DDS). */
  historyOf(streamId: string): readonly SimEvent[] {
    return this.history.get(streamId) ?? []
  }

  nextDwdsId(): string {
    return String(++this.dwdsIds)
  }

  violation(text: string): void {
    this.violations.push(text)
  }

  connect(peer: Peer): void {
    this.peers.add(peer)
  }

  disconnect(peer: Peer): void {
    this.peers.delete(peer)
    for (const service of peer.services.keys()) {
      this.broadcast('Service', serviceEvent('ServiceUnregistered', {service, method: this.serviceMethod(peer, service)}))
    }
  }

  /** The method that calls a client's service: `s<n>.<service>` through the VM or DDS; DWDS with
   *  no DDS keeps one registry for all clients and calls a service by its bare name. */
  serviceMethod(peer: Peer, service: string): string {
    return this.web && !this.dds ? service : `${peer.name}.${service}`
  }

  /** The client that registered a service with DWDS's one registry (no DDS). */
  serviceOwner(service: string): Peer | undefined {
    return [...this.peers].find((peer) => peer.services.has(service))
  }

  /** Every registered service, by the client that registered it. */
  registeredServices(): Array<{peer: Peer; service: string; alias: string}> {
    return [...this.peers].flatMap((peer) => [...peer.services].map(([service, alias]) => ({peer, service, alias})))
  }

  /** Client names `s0`, `s1`, ...: the lowest free one, so names are recycled. */
  nextPeerName(): string {
    const taken = new Set([...this.peers].map((peer) => peer.name))
    let index = 0
    while (taken.has(`s${index}`)) index++
    return `s${index}`
  }

  peerNamed(name: string): Peer | undefined {
    return [...this.peers].find((peer) => peer.name === name)
  }

  otherPeers(peer: Peer): Peer[] {
    return [...this.peers].filter((other) => other !== peer)
  }

  broadcast(streamId: string, event: SimEvent, except?: Peer): void {
    const text = streamNotify(streamId, event)
    for (const peer of this.peers) if (peer !== except && peer.streams.has(streamId)) peer.send(text)
  }

  /** `isolates/root` names the first (here: only) isolate; any other id must be the live one. */
  lookupIsolate(id: string): SimIsolate | undefined {
    if (this.web) return id === this.isolate.id ? this.isolate : undefined
    return id === 'isolates/root' || id === this.isolate.id ? this.isolate : undefined
  }

  extensionRPCs(isolate: SimIsolate): string[] {
    return isolate.registered().filter((method) => !this.hidden(method))
  }

  isRegistered(isolate: SimIsolate, method: string): boolean {
    return !this.hidden(method) && isolate.runs(method)
  }

  /** Resolves once the isolate may run an extension handler: true when it runs, false when the
   *  isolate is gone (a held call then never gets a reply). */
  whenRunnable(isolate: SimIsolate): Promise<boolean> {
    if (isolate !== this.isolate || this.closed) return Promise.resolve(false)
    if (!this.faults.paused) return Promise.resolve(true)
    return new Promise((settle) => this.held.push(settle))
  }

  /** Hot restart as Flutter does it: the UI isolate exits and a new one starts, the framework's
   *  extensions register at once and the app's after `extensionDelayMs`. */
  async restartIsolate(extensionDelayMs = this.restartRegistrationMs): Promise<void> {
    if (this.websocket) return this.reloadPage(extensionDelayMs)
    this.broadcast('Isolate', isolateEvent('IsolateExit', this.isolate))
    this.settleHeld(false)
    const next = this.newIsolate()
    this.isolate = next
    const framework = (this.framework = new FlutterFramework(false))
    this.app.restart()
    this.broadcast('Isolate', isolateEvent('IsolateStart', next))
    this.broadcast('Isolate', isolateEvent('IsolateRunnable', next))
    this.registerExtensions(next, FlutterFramework.extensions(this.web))
    if (extensionDelayMs > 0) await this.sleep(extensionDelayMs)
    if (this.isolate === next && !this.closed) this.registerExtensions(next, this.tapirExtensions())
    // main() goes on to runApp, whose first frame follows the package's registration.
    framework.firstFrameSent = true
  }

  /**
   * Hot restart in DWDS's WebSocket mode: the page reloads, but DWDS keeps its isolate. The page's
   * IsolateExit destroys nothing there (dev_handler.dart destroys only a ChromeProxyService's), and
   * its IsolateStart finds the isolate running (`_handleIsolateStart` → `WebSocketProxyService
   * .createIsolate`: `if (isIsolateRunning) … return`), so no isolate event is posted and the
   * extension list is never cleared. Each registration of the new page is added to it again, with
   * a ServiceExtensionAdded (proxy_service.dart `parseRegisterEvent`).
   */
  private async reloadPage(extensionDelayMs: number): Promise<void> {
    const load = ++this.pageLoads
    this.settleHeld(false)
    const framework = (this.framework = new FlutterFramework(false))
    this.app.restart()
    this.isolate.reloadPage()
    this.registerExtensions(this.isolate, FlutterFramework.extensions(this.web), true)
    if (extensionDelayMs > 0) await this.sleep(extensionDelayMs)
    if (this.pageLoads === load && !this.closed) this.registerExtensions(this.isolate, this.tapirExtensions(), true)
    framework.firstFrameSent = true
  }

  /** A hot restart as a restart service answers it: once the new isolate runs. Its main() goes on
   *  to register the app's extensions `restartRegistrationMs` later, after the answer. */
  hotRestart(): void {
    void this.restartIsolate()
  }

  close(): void {
    this.closed = true
    this.stopListening()
    this.settleHeld(false)
    for (const wake of [...this.sleepers]) wake()
  }

  /** DWDS numbers the isolate of each page load from 1. */
  private newIsolate(): SimIsolate {
    if (!this.web) return new SimIsolate()
    const previous = (this as {isolate?: SimIsolate}).isolate?.webCounter ?? 0
    return new SimIsolate(previous + 1)
  }

  private registerExtensions(isolate: SimIsolate, methods: readonly string[], again = false): void {
    for (const method of methods) {
      isolate.register(method, again)
      if (!this.hidden(method)) this.broadcast('Isolate', isolateEvent('ServiceExtensionAdded', isolate, {extensionRPC: method}))
    }
  }

  /** The app package's extensions: tapir's, Dusk 0.0.1's, or both. */
  private tapirExtensions(): string[] {
    if (this.package === 'none') return []
    const tapir = this.package === 'dusk' ? [] : this.app.extensions.map((name) => `ext.tapir.${name}`)
    return [...tapir, ...(this.package === 'tapir' ? [] : DUSK_EXTENSIONS)]
  }

  private hidden(method: string): boolean {
    return this.faults.extensionsMissing && (method.startsWith('ext.tapir.') || method.startsWith('ext.dusk.'))
  }

  /** What the app logged, posted or printed, on the streams that carry it; DDS keeps a history. */
  private developerEvent(event: DeveloperEvent): void {
    for (const {streamId, event: streamEvent} of streamEventsOf(event, this.isolate, this)) {
      if (this.dds) {
        const kept = this.history.get(streamId) ?? []
        kept.push(streamEvent)
        if (kept.length > DDS_HISTORY_SIZE) kept.shift()
        this.history.set(streamId, kept)
      }
      this.broadcast(streamId, streamEvent)
    }
  }

  private faultsChanged(before: SimFaults): void {
    if (before.paused === this.faults.paused) return
    this.broadcast('Debug', pauseEvent(this.isolate, this.faults.paused))
    if (!this.faults.paused) this.settleHeld(true)
  }

  private settleHeld(resumed: boolean): void {
    const held = this.held
    this.held = []
    for (const settle of held) settle(resumed)
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer)
        this.sleepers.delete(wake)
        resolve()
      }
      const timer = setTimeout(wake, ms)
      this.sleepers.add(wake)
    })
  }
}
