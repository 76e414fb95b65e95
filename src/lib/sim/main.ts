// Background entry for `tapir start --device=sim`:
//   node dist/lib/sim/main.js [--mode vm|dds] [--port N] [--host 127.0.0.1] [--ready-file <path>]
//   TAPIR_SIM_PERF_REGRESSION=1 turns on the perf regression knob.
import {rename, writeFile} from 'node:fs/promises'
import {parseArgs} from 'node:util'
import {startSim, type SimMode} from './index.js'

const {values} = parseArgs({
  options: {
    mode: {type: 'string', default: 'vm'},
    port: {type: 'string', default: '0'},
    host: {type: 'string', default: '127.0.0.1'},
    'ready-file': {type: 'string'},
  },
})

const mode = values.mode
const port = Number(values.port)
if ((mode !== 'vm' && mode !== 'dds') || !Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write('usage: main.js [--mode vm|dds] [--port N] [--host 127.0.0.1] [--ready-file <path>]\n')
  process.exit(1)
}

// The background sim stands for `flutter run`: its tool client offers hotRestart.
const sim = await startSim({mode: mode as SimMode, port, host: values.host, flutterTool: true, perfRegression: process.env.TAPIR_SIM_PERF_REGRESSION === '1'})
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

const readyFile = values['ready-file']
if (readyFile !== undefined) {
  const temporary = `${readyFile}.${process.pid}.tmp`
  await writeFile(temporary, JSON.stringify({httpUri: sim.httpUri, wsUri: sim.wsUri, pid: process.pid}), {mode: 0o600})
  await rename(temporary, readyFile)
}
