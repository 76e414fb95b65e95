#!/usr/bin/env node
// npm run bench: wall times measured side by side in one run against the simulated app.
// Samples of the compared commands are interleaved so machine noise hits them alike.
import {execFile} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {loadavg, tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bin = join(root, 'bin', 'run.cjs')
const samples = Number(process.env.BENCH_SAMPLES ?? 15)
// The Node that runs every measured command and the bare start beside it: this one unless
// BENCH_NODE names another binary (docs/benchmark.md says how to fetch Node 22 from npm).
const node = process.env.BENCH_NODE || process.execPath
// BENCH_PART=startup stops after the start-up figures (section 1).
const startupOnly = process.env.BENCH_PART === 'startup'
// BENCH_ONLY=trace measures the traced flow alone (section 7), the figure docs/traces.md quotes.
const traceOnly = process.env.BENCH_ONLY === 'trace'
const STEPS = 50
/** Rows of the big-list screen: two snapshot nodes each, so 10,000 nodes and the screen's own few. */
const BIG_LIST_ROWS = 5000
const dist = (path) => import(join(root, 'dist', path))
const {startSim} = await dist('sim/index.js')
const {AppConnection} = await dist('lib/vm/app-connection.js')
const {toWebSocketUri} = await dist('lib/vm/uri.js')
const {Deadline} = await dist('lib/vm/deadline.js')
// Answers the bench reads by hand: any JSON object (the verbs check their own shapes).
const {anyAnswer} = await dist('lib/vm/tapir-answers.js')

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const ms = (value) => `${value.toFixed(1)} ms`
const now = () => Number(process.hrtime.bigint()) / 1e6

// The flutter run stand-in offers hotRestart, which a perf_run repeat's setup uses.
const sim = await startSim({mode: 'vm', flutterTool: true})
const scratch = mkdtempSync(join(tmpdir(), 'tapir-bench-'))
const state = join(scratch, 'state.json')
writeFileSync(state, JSON.stringify({vmServiceUri: sim.wsUri, device: 'sim', pid: null}), {mode: 0o600})
const env = {...process.env, HOME: scratch, TAPIR_STATE_FILE: state, NO_COLOR: '1', NODE_ENV: 'production'}

// Asynchronous on purpose: the sim answers from this very process.
const run = promisify(execFile)
async function timed(args, runEnv = env) {
  const start = now()
  await run(node, args, {env: runEnv, maxBuffer: 64 * 1024 * 1024})
  return now() - start
}

// A command and a bare Node start back to back, which goes first alternating between pairs, so
// load from elsewhere on the machine hits both alike; ratios are medians of the pairs' ratios.
async function pair(args, runEnv, index) {
  let base
  let cli
  if (index % 2 === 0) {
    base = await timed(['-e', '0'])
    cli = await timed(args, runEnv)
  } else {
    cli = await timed(args, runEnv)
    base = await timed(['-e', '0'])
  }
  return {base, cli, ratio: cli / base, more: cli - base}
}

// The peak memory of one CLI process, read as it exits (a preload, so only for these runs).
const maxRssProbe = join(scratch, 'max-rss.cjs')
writeFileSync(
  maxRssProbe,
  "process.on('exit', () => require('node:fs').appendFileSync(process.env.TAPIR_BENCH_RSS, process.resourceUsage().maxRSS + '\\n'))\n",
)
async function peakRssMb(args, runEnv, runs) {
  const file = join(scratch, 'rss.txt')
  writeFileSync(file, '')
  for (let i = 0; i < runs; i++) await run(node, ['--require', maxRssProbe, ...args], {env: {...runEnv, TAPIR_BENCH_RSS: file}})
  return Math.max(...readFileSync(file, 'utf8').trim().split('\n').map(Number)) / 1024
}

const rows = []
function report(nodeVersion) {
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')
  console.log(`tapir bench (medians; ${samples} samples per CLI figure; load average ${load} on this machine)`)
  console.log(`  commands run by Node ${nodeVersion.trim()} (${node}); the bench itself by Node ${process.version}`)
  console.log(rows.join('\n'))
}
const row = (name, value, note = '') => rows.push(`  ${name.padEnd(44)} ${ms(value).padStart(10)}${note ? `  ${note}` : ''}`)

try {
  if (traceOnly) {
    await tracedFlow()
    report((await run(node, ['--version'])).stdout)
  } else await startupAndTheRest()
} finally {
  await sim.close()
  rmSync(scratch, {recursive: true, force: true})
}

async function startupAndTheRest() {
  // 1. start-up: a connected verb, a one-step tapir:run, a session command and a one-flow test, each against a
  //    bare Node start run back to back with it, and the peak memory of each
  const {stdout: nodeVersion} = await run(node, ['--version'])
  // A one-flow suite against the running app: `tapir test` with nothing to start.
  const flows = join(scratch, 'flows')
  mkdirSync(flows)
  writeFileSync(join(flows, 'snap.tapir'), 'snap\n')
  const commands = [
    ['tapir tapir:snap', [bin, 'tapir:snap']],
    ['tapir tapir:run "snap"', [bin, 'tapir:run', 'snap']],
    ['tapir status', [bin, 'status']],
    ['tapir test (one flow)', [bin, 'test', '--fresh=none', `--output-dir=${join(scratch, 'test-reports')}`, flows]],
  ]
  for (const [, args] of commands) await timed(args) // warm the file cache
  const paired = commands.map(() => [])
  for (let i = 0; i < samples; i++) for (const [index, [, args]] of commands.entries()) paired[index].push(await pair(args, env, i))
  const pairs = (list, key) => median(list.map((entry) => entry[key]))
  const snap = pairs(paired[0], 'cli')
  row('node -e 0', pairs(paired.flat(), 'base'))
  for (const [index, [name, args]] of commands.entries()) {
    const rss = await peakRssMb(args, env, 5)
    row(
      name,
      pairs(paired[index], 'cli'),
      `${pairs(paired[index], 'ratio').toFixed(2)}x node, +${pairs(paired[index], 'more').toFixed(0)} ms, ${rss.toFixed(1)} MB peak (max RSS of 5 runs)`,
    )
  }
  rows.push(`  budget: 1.8x node on Node 20, node + 45 ms on Node 22, at most 60 MB (DESIGN §9)`)
  if (!startupOnly) await theRest(snap)
  report(nodeVersion)
}

// Sections 2 to 7: what a run, an MCP call, a perf_run repeat, a big snapshot and a test cost.
async function theRest(snap) {
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
    await app.callExtension('snap', {interactiveOnly: 'true', includeEnrichers: 'false'}, anyAnswer, new Deadline(30_000))
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
  await client.connect(new StdioClientTransport({command: node, args: [bin, 'mcp:serve'], env, stderr: 'ignore'}))
  // What every agent reads before its first call: the compact JSON of the tools array (at most 25,000 bytes).
  const {tools} = await client.listTools()
  const listBytes = Buffer.byteLength(JSON.stringify(tools))
  rows.push(
    `  ${'MCP tools/list (compact JSON of tools)'.padEnd(44)} ${`${listBytes} B`.padStart(10)}  ${tools.length} tools, ${Math.round(listBytes / tools.length)} B a tool (budget 25000 B)`,
  )
  const instructionBytes = Buffer.byteLength(client.getInstructions() ?? '')
  rows.push(`  ${'MCP instructions at initialize'.padEnd(44)} ${`${instructionBytes} B`.padStart(10)}  read once, beside the tool list`)
  await client.callTool({name: 'tapir_snap', arguments: {}})
  const calls = []
  for (let i = 0; i < 50; i++) {
    const start = now()
    await client.callTool({name: 'tapir_snap', arguments: {}})
    calls.push(now() - start)
  }
  await client.close()
  row('MCP tools/call tapir_snap', median(calls), `vs ${ms(snap)} per CLI invocation`)

  // 4. one perf_run repeat beyond the app's own time: the same unit of work by hand over one
  //    connection (hot restart, new boot id, sign in, perf_begin, a scroll, the 300 ms settle, perf_end)
  const scenario = join(scratch, 'bench.yaml')
  writeFileSync(
    scenario,
    [
      'name: bench',
      'platforms: [sim]',
      'setup:',
      '  - hot_restart',
      '  - fill: {target: {key: email}, text: ada@example.com}',
      '  - fill: {target: {key: password}, text: hunter22}',
      '  - tap: {target: {key: signIn}}',
      '  - wait_for_text: Monitors',
      'steps:',
      '  - scroll: {target: {text: API}, dy: 400}',
      '',
    ].join('\n'),
  )
  const perfRun = (repeat) => timed([bin, 'tapir:perf_run', scenario, `--repeat=${repeat}`, `--out=${join(scratch, 'perf')}`])
  const REPEATS = 6
  const short = []
  const long = []
  for (let i = 0; i < 3; i++) {
    short.push(await perfRun(1))
    long.push(await perfRun(REPEATS))
  }
  const perRepeat = (median(long) - median(short)) / (REPEATS - 1)
  const byHand = await AppConnection.open(toWebSocketUri(sim.httpUri), 30_000)
  const call = (method, params) => byHand.callExtension(method, params, anyAnswer, new Deadline(30_000))
  const quiet = {includeSnapshot: 'false'}
  const bootId = async () => (await call('boot_id', {}).catch(() => ({}))).bootId
  const handRepeats = []
  for (let i = 0; i < 5; i++) {
    const start = now()
    const before = await bootId()
    await byHand.hotRestart()
    while ((await bootId()) === before || (await bootId()) === undefined) await new Promise((resolve) => setTimeout(resolve, 5))
    const ref = async (query) => (await call('find', query)).ref
    await call('fill', {ref: await ref({key: 'email'}), text: 'ada@example.com', ...quiet})
    await call('fill', {ref: await ref({key: 'password'}), text: 'hunter22', ...quiet})
    await call('tap', {ref: await ref({key: 'signIn'}), ...quiet})
    await call('wait_for', {text: 'Monitors', timeoutMs: '15000'})
    const list = await ref({text: 'API'})
    await call('perf_begin', {mode: 'attribution', phases: 'false'})
    await call('scroll', {ref: list, dx: '0', dy: '400', ...quiet})
    await new Promise((resolve) => setTimeout(resolve, 300))
    await call('perf_end', {full: 'true'})
    handRepeats.push(now() - start)
  }
  byHand.close()
  row('one perf_run repeat', perRepeat, `(${REPEATS} repeats - 1 repeat) / ${REPEATS - 1}`)
  row("the app's own time for one repeat (by hand)", median(handRepeats), 'the same RPCs and the 300 ms settle')
  row('perf_run overhead per repeat over the app', perRepeat - median(handRepeats))

  // 5. a 10,000-node snapshot (the big-list knob: 5,000 monitor rows, two nodes each) through the
  //    CLI, beyond the app's own time for it, next to the same for the small sim's screen
  const bigSim = await startSim({mode: 'vm', bigList: BIG_LIST_ROWS})
  try {
    const bigState = join(scratch, 'big-state.json')
    writeFileSync(bigState, JSON.stringify({vmServiceUri: bigSim.wsUri, device: 'sim', pid: null}), {mode: 0o600})
    const bigEnv = {...env, TAPIR_STATE_FILE: bigState}
    const own = await AppConnection.open(toWebSocketUri(bigSim.httpUri), 60_000)
    const bigCall = (method, params) => own.callExtension(method, params, anyAnswer, new Deadline(60_000))
    const handle = async (query) => (await bigCall('find', query)).ref
    await bigCall('fill', {ref: await handle({key: 'email'}), text: 'ada@example.com', includeSnapshot: 'false'})
    await bigCall('fill', {ref: await handle({key: 'password'}), text: 'hunter22', includeSnapshot: 'false'})
    await bigCall('tap', {ref: await handle({key: 'signIn'}), includeSnapshot: 'false'})
    const small = await AppConnection.open(toWebSocketUri(sim.httpUri), 30_000)
    const snapOf = (connection) => connection.callExtension('snap', {includeEnrichers: 'false'}, anyAnswer, new Deadline(60_000))
    const nodesOf = async (connection) =>
      (await snapOf(connection)).snapshot.split('\n').filter((line) => line.trimStart().startsWith('- ')).length
    const nodes = await nodesOf(own)
    const smallNodes = await nodesOf(small)
    await timed([bin, 'tapir:snap'], bigEnv) // warm
    const beyond = {big: [], small: []}
    const totals = {big: [], small: []}
    const owns = {big: [], small: []}
    // Each sample: the app's own time for the snap over an open connection, and the CLI's whole
    // run, back to back, the two screens alternating, so load hits them alike.
    for (let i = 0; i < samples; i++) {
      for (const [key, connection, runEnv] of i % 2
        ? [
            ['small', small, env],
            ['big', own, bigEnv],
          ]
        : [
            ['big', own, bigEnv],
            ['small', small, env],
          ]) {
        const start = now()
        await snapOf(connection)
        const app = now() - start
        const cli = await timed([bin, 'tapir:snap'], runEnv)
        owns[key].push(app)
        totals[key].push(cli)
        beyond[key].push(cli - app)
      }
    }
    own.close()
    small.close()
    row(`tapir:snap of ${nodes} nodes`, median(totals.big))
    row("  the app's own time for it (one RPC)", median(owns.big))
    row('  the CLI beyond the app', median(beyond.big), 'Node start, connect, isolate, parse, print')
    row(`  the same for a screen of ${smallNodes} nodes`, median(beyond.small))
    row(`  the part ${nodes} nodes add (pass-through)`, median(beyond.big.map((value, i) => value - beyond.small[i])), 'goal 50 ms or less')
  } finally {
    await bigSim.close()
  }

  // 6. tapir test: what each test costs beyond the app's own time for the same work, the hot
  //    restart before it and the extensions' return included
  const suiteDir = join(scratch, 'suite')
  const TESTS = 10
  mkdirSync(suiteDir)
  for (let i = 0; i < TESTS; i++) writeFileSync(join(suiteDir, `t${String(i).padStart(2, '0')}.tapir`), 'expect --route=/login\n')
  const suiteRun = (count) =>
    timed([
      bin,
      'test',
      ...Array.from({length: count}, (_, i) => join(suiteDir, `t${String(i).padStart(2, '0')}.tapir`)),
      '--reporter=json',
      `--output-dir=${join(scratch, 'suite-report')}`,
    ])
  const suiteLong = []
  const suiteShort = []
  for (let i = 0; i < 3; i++) {
    suiteLong.push(await suiteRun(TESTS))
    suiteShort.push(await suiteRun(1))
  }
  const perTest = (median(suiteLong) - median(suiteShort)) / (TESTS - 1)
  const tester = await AppConnection.open(toWebSocketUri(sim.httpUri), 30_000)
  const testByHand = []
  for (let i = 0; i < 10; i++) {
    const start = now()
    await tester.hotRestart()
    for (;;) {
      const routes = await tester.callExtension('get_routes', {}, anyAnswer, new Deadline(30_000)).catch(() => undefined)
      if (routes) break
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    await tester.callExtension('get_routes', {}, anyAnswer, new Deadline(30_000))
    testByHand.push(now() - start)
  }
  tester.close()
  row('one test in tapir test', perTest, `(${TESTS} tests - 1 test) / ${TESTS - 1}, each a hot restart and one expect`)
  row("the app's own time for one test (by hand)", median(testByHand), 'hot restart, extensions back, one get_routes')
  row('tapir test overhead per test over the app', perTest - median(testByHand))

  await tracedFlow()
}

async function tracedFlow() {
  // 7. a traced flow: the same tapir test of one sign-in flow (10 steps, 5 of them actions) with
  //    --trace=on (a screenshot after each action, the default for tests), with --trace=on
  //    --no-trace-screenshots, and with --trace=off, interleaved so load hits them alike
  const flowDir = join(scratch, 'traced')
  mkdirSync(flowDir)
  const flow = join(flowDir, 'sign-in.tapir')
  writeFileSync(
    flow,
    [
      'expect --route=/login',
      'find --key=email --as=email',
      'fill --ref=@email --text=ada@example.com',
      'find --key=password --as=password',
      'fill --ref=@password --text=hunter22',
      'find --key=signIn --as=go',
      'tap --ref=@go',
      'wait --text=Monitors',
      'navigate --route=/settings',
      'expect --text=Settings',
      '',
    ].join('\n'),
  )
  const flowRun = (...flags) => timed([bin, 'test', flow, '--reporter=json', `--output-dir=${join(scratch, 'traced-report')}`, ...flags])
  const traced = {off: [], on: [], bare: []}
  await flowRun('--trace=off') // warm
  for (let i = 0; i < Math.max(5, samples); i++) {
    const order = [
      ['off', ['--trace=off']],
      ['on', ['--trace=on']],
      ['bare', ['--trace=on', '--no-trace-screenshots']],
    ]
    for (const [key, flags] of i % 2 ? order.reverse() : order) traced[key].push(await flowRun(...flags))
  }
  const off = median(traced.off)
  const percent = (value) => `${(((value - off) / off) * 100).toFixed(1)}% more`
  row('a 10-step flow in tapir test, --trace=off', off, 'the whole command: Node, hot restart, the steps, the report')
  row('  the same with --trace=on', median(traced.on), `${percent(median(traced.on))} (goal 10% or less; screenshots after each action)`)
  row('  the same with --trace=on --no-trace-screenshots', median(traced.bare), percent(median(traced.bare)))
}
