#!/usr/bin/env node
// npm run bench: wall times measured side by side in one run against the simulated app.
// Samples of the compared commands are interleaved so machine noise hits them alike.
import {execFile} from 'node:child_process'
import {promisify} from 'node:util'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bin = join(root, 'bin', 'run.js')
const samples = Number(process.env.BENCH_SAMPLES ?? 15)
const STEPS = 50
const dist = (path) => import(join(root, 'dist', path))
const {startSim} = await dist('sim/index.js')
const {AppConnection} = await dist('lib/vm/app-connection.js')
const {toWebSocketUri} = await dist('lib/vm/uri.js')

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const ms = (value) => `${value.toFixed(1)} ms`
const now = () => Number(process.hrtime.bigint()) / 1e6

const sim = await startSim({mode: 'vm'})
const scratch = mkdtempSync(join(tmpdir(), 'tapir-bench-'))
const state = join(scratch, 'state.json')
writeFileSync(state, JSON.stringify({vmServiceUri: sim.wsUri, device: 'sim', pid: null}), {mode: 0o600})
const env = {...process.env, HOME: scratch, TAPIR_STATE_FILE: state, NO_COLOR: '1', NODE_ENV: 'production'}

// Asynchronous on purpose: the sim answers from this very process.
const run = promisify(execFile)
async function timed(args) {
  const start = now()
  await run(process.execPath, args, {env, maxBuffer: 64 * 1024 * 1024})
  return now() - start
}

const rows = []
const row = (name, value, note = '') => rows.push(`  ${name.padEnd(44)} ${ms(value).padStart(10)}${note ? `  ${note}` : ''}`)

try {
  // 1. one connected verb against a bare Node start
  await timed([bin, 'tapir:snap']) // warm the file cache
  const node = []
  const snap = []
  for (let i = 0; i < samples; i++) {
    node.push(await timed(['-e', '0']))
    snap.push(await timed([bin, 'tapir:snap']))
  }
  row('node -e 0', median(node))
  row('tapir tapir:snap', median(snap), `${(median(snap) / median(node)).toFixed(2)}x node (budget 2.5x)`)

  // 2. a 50-step tapir:run against 50 separate invocations
  const step = 'snap --interactiveOnly'
  const runOf = (count) => [bin, 'tapir:run', ...Array.from({length: count}, () => step)]
  const runs = []
  const singles = []
  const separate = []
  for (let i = 0; i < Math.max(3, Math.floor(samples / 3)); i++) {
    runs.push(await timed(runOf(STEPS)))
    singles.push(await timed(runOf(1)))
    let total = 0
    for (let j = 0; j < STEPS; j++) total += await timed([bin, 'tapir:snap', '--interactiveOnly'])
    separate.push(total)
  }
  const perStep = (median(runs) - median(singles)) / (STEPS - 1)
  const app = await AppConnection.open(toWebSocketUri(sim.httpUri), 30_000)
  const own = []
  for (let i = 0; i < 100; i++) {
    const start = now()
    await app.callExtension('snap', {interactiveOnly: 'true', includeEnrichers: 'false'})
    own.push(now() - start)
  }
  app.close()
  row(`tapir:run with ${STEPS} steps`, median(runs))
  row(`${STEPS} separate tapir invocations`, median(separate), `${(median(separate) / median(runs)).toFixed(1)}x the run`)
  row('one step inside a run', perStep)
  row("the app's own time for that step (one RPC)", median(own))
  row('run overhead per step over the app', perStep - median(own))

  // 3. MCP tools/call latency of tapir_snap, next to the CLI's per-invocation time
  const client = new Client({name: 'bench', version: '0'})
  await client.connect(new StdioClientTransport({command: process.execPath, args: [bin, 'mcp:serve'], env, stderr: 'ignore'}))
  await client.callTool({name: 'tapir_snap', arguments: {}})
  const calls = []
  for (let i = 0; i < 50; i++) {
    const start = now()
    await client.callTool({name: 'tapir_snap', arguments: {}})
    calls.push(now() - start)
  }
  await client.close()
  row('MCP tools/call tapir_snap', median(calls), `vs ${ms(median(snap))} per CLI invocation`)

  console.log(`tapir bench (medians; Node ${process.version}; ${samples} samples per CLI figure)`)
  console.log(rows.join('\n'))
} finally {
  await sim.close()
  rmSync(scratch, {recursive: true, force: true})
}
