import type {MonitorsOptions} from './app/index.js'
import type {SimApp} from './app-contract.js'
import {attachDwdsClient} from './server/dwds-client.js'
import type {SimFaults} from './server/faults.js'
import {attachFlutterTool} from './server/flutter-tool.js'
import {ddsFrontDoor, dwdsFrontDoor, vmFrontDoor} from './server/front-door.js'
import {serve, type ListeningServer} from './server/http.js'
import {makeAuthToken} from './server/token.js'
import {hostForUri, httpUriOf} from './server/uri.js'
import {SimVm, type SimMode, type SimPackage} from './server/vm.js'
import {servePage} from './web/page-server.js'

export {ExtensionError, type EvaluateReply, type SimApp} from './app-contract.js'
export type {SimFaults} from './server/faults.js'
export type {SimMode, SimPackage} from './server/vm.js'

export interface SimOptions {
  /** 'vm': a raw VM Service. 'dds': a VM whose `/ws` redirects to a DDS serving the same isolate.
   *  'dwds': the debug service of a Flutter web app (isolate "1", no isolate groups) behind DDS, as
   *  `flutter run -d chrome` runs it; 'dwds-direct': the same without DDS (`--no-dds`). */
  mode?: SimMode
  host?: string
  /** The raw VM's port; 0 or absent picks a free one. */
  port?: number
  /** The app, or a factory for it; by default the Monitors app. */
  app?: SimApp | (() => SimApp)
  /** Refuse extension calls with non-string params (-32602) instead of only noting them. Default true. */
  strictParams?: boolean
  faults?: Partial<SimFaults>
  /** Also serve the app as a web page (as `flutter run -d web-server` does) on this port; 0 picks a free one. */
  webPort?: number
  /** A client standing for `flutter run` that registers the hotRestart service (tapir start --device=sim has one). */
  flutterTool?: boolean
  /** The tool client's source file (JSON standing for lib/): a hot reload builds from it anew. */
  sourceFile?: string
  /** Called once, when a browser first loads the web page and asks for a frame (DWDS announces
   *  its debug service only once a client connects). */
  onBrowserConnected?: () => void
  /** The default app's perf regression knob (TAPIR_SIM_PERF_REGRESSION=1 for tapir start --device=sim). */
  perfRegression?: boolean
  /** The default app built with `--dart-define=TAPIR_FORCE_FRAMES=false` when false (default true). */
  forceFrames?: boolean
  /** The default app's backend holds this many monitors ("Monitor 1", ...) instead of its twenty. */
  bigList?: number
  /** The in-app package the app registers: tapir (default), Dusk 0.0.1 (`ext.dusk.*` only), both, or none. */
  package?: SimPackage
  /** 'dwds-websocket': how long DWDS waits for an extension's answer (default DWDS's own 10 s). */
  callCapMs?: number
  /** Web modes: false stands for `flutter run --no-web-enable-expression-evaluation` (evaluate is -32600). */
  expressionCompiler?: boolean
  /** After a hot restart (any: a service's, or restartIsolate), how long until the app's
   *  extensions are registered again: until then calls to them answer -32601. */
  restartRegistrationMs?: number
}

export interface SimHandle {
  /** What `flutter run` prints: `http://127.0.0.1:<port>/<token>/`. In dds mode the raw VM, whose
   *  `/ws` redirects to DDS; in dwds mode DDS itself, since DWDS refuses direct clients. */
  httpUri: string
  /** `ws://127.0.0.1:<port>/<token>/ws` of the same (DWDS without DDS: `ws://…/<token>`). */
  wsUri: string
  /** With DDS (dds and dwds modes): `http://127.0.0.1:<ddsPort>/<ddsToken>/`. */
  ddsHttpUri?: string
  /** dwds mode: DWDS's own address, which refuses every client once DDS has taken control. */
  dwdsWsUri?: string
  /** The token of the VM's (or DWDS's) own address. */
  token: string
  /** With `webPort`: `http://127.0.0.1:<port>/`, the page a browser shows the app in. */
  webUri?: string
  app: SimApp
  /** Read live on every request; assigning `paused = false` releases held extension calls. */
  faults: SimFaults
  setFaults(patch: Partial<SimFaults>): void
  /** Protocol misuse by clients seen so far. */
  violations: string[]
  requests: Array<{method: string; params: Record<string, unknown>}>
  /** Hot restart as isolate replacement; the app's extensions re-register after `extensionDelayMs`. */
  restartIsolate(options?: {extensionDelayMs?: number}): Promise<void>
  close(): Promise<void>
}

export async function startSim(options: SimOptions = {}): Promise<SimHandle> {
  const mode = options.mode ?? 'vm'
  const host = options.host ?? '127.0.0.1'
  const web = mode === 'dwds' || mode === 'dwds-direct' || mode === 'dwds-websocket'
  const app = await resolveApp(options.app, {
    perfRegression: options.perfRegression ?? false,
    web,
    forceFrames: options.forceFrames ?? true,
    tapirPackage: options.package !== 'none',
    ...(options.bigList === undefined ? {} : {monitorNames: Array.from({length: options.bigList}, (_, i) => `Monitor ${i + 1}`)}),
  })
  const vm = new SimVm({
    mode,
    app,
    strictParams: options.strictParams ?? true,
    faults: options.faults ?? {},
    ...(options.package ? {package: options.package} : {}),
    ...(options.callCapMs === undefined ? {} : {callCapMs: options.callCapMs}),
    ...(options.expressionCompiler === undefined ? {} : {expressionCompiler: options.expressionCompiler}),
    ...(options.restartRegistrationMs === undefined ? {} : {restartRegistrationMs: options.restartRegistrationMs}),
  })
  if (options.flutterTool) attachFlutterTool(vm, {sourceFile: options.sourceFile})
  if (web) attachDwdsClient(vm)
  const servers: ListeningServer[] = []
  const close = async (): Promise<void> => {
    vm.close()
    await Promise.all(servers.splice(0).map((server) => server.close()))
  }
  try {
    let ddsHttpUri: string | undefined
    if (vm.dds) {
      const ddsToken = makeAuthToken()
      const dds = await serve({host, port: 0, door: ddsFrontDoor(ddsToken), vm})
      servers.push(dds)
      ddsHttpUri = httpUriOf(host, dds.port, ddsToken)
    }
    const token = makeAuthToken()
    const door = web ? dwdsFrontDoor(token, ddsHttpUri) : vmFrontDoor(token, ddsHttpUri)
    const raw = await serve({host, port: options.port ?? 0, door, vm})
    servers.push(raw)
    const webUri =
      options.webPort === undefined ? undefined : await startPage(app, host, options.webPort, servers, options.onBrowserConnected)
    // DWDS serves its WebSocket right at the token (any path under it works).
    const dwdsWsUri = `ws://${hostForUri(host)}:${raw.port}/${token}`
    const advertised = web && ddsHttpUri !== undefined ? ddsHttpUri : httpUriOf(host, raw.port, token)
    return {
      ...(webUri === undefined ? {} : {webUri}),
      httpUri: advertised,
      wsUri: mode === 'dwds-direct' ? dwdsWsUri : toWs(advertised),
      ...(ddsHttpUri === undefined ? {} : {ddsHttpUri}),
      ...(mode === 'dwds' || mode === 'dwds-websocket' ? {dwdsWsUri} : {}),
      token,
      app,
      get faults() {
        return vm.faults
      },
      set faults(value) {
        Object.assign(vm.faults, value)
      },
      setFaults(patch) {
        Object.assign(vm.faults, patch)
      },
      violations: vm.violations,
      requests: vm.requests,
      restartIsolate: (restart) => vm.restartIsolate(restart?.extensionDelayMs),
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}

/** `http://h:p/TOKEN=/` → `ws://h:p/TOKEN=/ws`. */
const toWs = (httpUri: string): string => `${httpUri.replace(/^http:/, 'ws:')}ws`

async function startPage(app: SimApp, host: string, port: number, servers: ListeningServer[], onBrowser?: () => void): Promise<string> {
  const {resize, displayList, onFrame} = app
  if (!resize || !displayList || !onFrame) throw new Error('this app has no web build (resize, displayList and onFrame)')
  const page = await servePage(
    {resize: resize.bind(app), displayList: displayList.bind(app), onFrame: onFrame.bind(app), setLifecycle: app.setLifecycle.bind(app)},
    {host, port, onBrowser},
  )
  servers.push(page)
  return `http://${hostForUri(host)}:${page.port}/`
}

/** The Monitors app is loaded only when no app is given, so tests with their own app never load it. */
async function resolveApp(app: SimOptions['app'], build: MonitorsOptions): Promise<SimApp> {
  if (typeof app === 'function') return app()
  if (app) return app
  const monitorsModule = './app/index.js'
  const {createMonitorsApp} = (await import(monitorsModule)) as {createMonitorsApp: (options: MonitorsOptions) => SimApp}
  return createMonitorsApp(build)
}
