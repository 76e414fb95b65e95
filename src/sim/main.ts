// Background entry for `tapir start --device=sim`:
//   node dist/sim/main.js [--mode vm|dds|dwds|dwds-direct|dwds-websocket] [--port N] [--web-port N] [--host 127.0.0.1] [--ready-file <path>] [--fault <knob>]...
//   [--source <file.json>] (what a hot reload rebuilds from)
//   TAPIR_SIM_PERF_REGRESSION=1 turns on the perf regression knob.
import {rename, writeFile} from 'node:fs/promises'
import {parseArgs} from 'node:util'
import {FaultKnobError, parseFaultKnobs, type FaultPlan} from './fault-knobs.js'
import {startSim, type SimMode} from './index.js'

const {values} = parseArgs({
  options: {
    mode: {type: 'string', default: 'vm'},
    port: {type: 'string', default: '0'},
    'web-port': {type: 'string'},
    host: {type: 'string', default: '127.0.0.1'},
    'ready-file': {type: 'string'},
    fault: {type: 'string', multiple: true, default: []},
    source: {type: 'string'},
  },
})

const mode = values.mode
const port = Number(values.port)
const webPort = values['web-port'] === undefined ? undefined : Number(values['web-port'])
const isPort = (n: number): boolean => Number.isInteger(n) && n >= 0 && n <= 65535
if (
  !['vm', 'dds', 'dwds', 'dwds-direct', 'dwds-websocket'].includes(mode) ||
  !isPort(port) ||
  (webPort !== undefined && !isPort(webPort))
) {
  process.stderr.write(
    'usage: main.js [--mode vm|dds|dwds|dwds-direct|dwds-websocket] [--port N] [--web-port N] [--host 127.0.0.1] [--ready-file <path>] [--fault <knob>]... [--source <file.json>]\n',
  )
  process.exit(1)
}

let plan: FaultPlan
try {
  plan = parseFaultKnobs(values.fault)
} catch (error) {
  if (!(error instanceof FaultKnobError)) throw error
  process.stderr.write(`${error.message}\n`)
  process.exit(1)
}

// The background sim stands for `flutter run`: its tool client offers hotRestart.
// With a web page, the debug service is announced once a browser shows it, as DWDS does.
let announceDebugService = (): void => {}
const sim = await startSim({
  mode: mode as SimMode,
  port,
  webPort,
  host: values.host,
  faults: plan.faults,
  flutterTool: true,
  sourceFile: values.source,
  onBrowserConnected: () => announceDebugService(),
  perfRegression: plan.perfRegression === true || process.env.TAPIR_SIM_PERF_REGRESSION === '1',
  ...(plan.forceFrames === false ? {forceFrames: false} : {}),
  ...(plan.bigList === undefined ? {} : {bigList: plan.bigList}),
  ...(plan.package === undefined ? {} : {package: plan.package}),
})
if (plan.lifecycle !== undefined) sim.app.setLifecycle(plan.lifecycle)
if (plan.restartIsolateAfterMs !== undefined) setTimeout(() => void sim.restartIsolate(), plan.restartIsolateAfterMs).unref()
const stop = (): void => {
  void sim.close().then(() => process.exit(0))
}
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
// close_app: a desktop app exits shortly after SystemNavigator.pop, and its VM Service with it.
const closing = setInterval(() => {
  if (!sim.app.closed) return
  clearInterval(closing)
  setTimeout(stop, 100)
}, 100)
process.stdout.write(`The Dart VM service is listening on ${sim.httpUri}\n`)
if (sim.webUri !== undefined) {
  process.stdout.write(`lib/main.dart is being served at ${sim.webUri}\n`)
  announceDebugService = () => void process.stdout.write(`Debug service listening on ${sim.wsUri}\n`)
}

const readyFile = values['ready-file']
if (readyFile !== undefined) {
  const temporary = `${readyFile}.${process.pid}.tmp`
  await writeFile(temporary, JSON.stringify({httpUri: sim.httpUri, wsUri: sim.wsUri, webUri: sim.webUri, pid: process.pid}), {mode: 0o600})
  await rename(temporary, readyFile)
}
