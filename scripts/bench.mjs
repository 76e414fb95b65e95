#!/usr/bin/env node
// npm run bench: wall times measured side by side in one run, medians printed with ratios.
// Each sample pair runs the two commands back to back so machine noise hits both alike.
import {execFileSync} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bin = join(root, 'bin', 'run.js')
const samples = Number(process.env.BENCH_SAMPLES ?? 15)
const {startSim} = await import(join(root, 'dist', 'lib', 'sim', 'index.js'))

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const ms = (value) => `${value.toFixed(1)} ms`

function timed(file, args, env) {
  const start = process.hrtime.bigint()
  execFileSync(file, args, {env: {...process.env, NO_COLOR: '1', ...env}, stdio: ['ignore', 'ignore', 'pipe']})
  return Number(process.hrtime.bigint() - start) / 1e6
}

const sim = await startSim({mode: 'vm'})
const scratch = mkdtempSync(join(tmpdir(), 'tapir-bench-'))
const state = join(scratch, 'state.json')
writeFileSync(state, JSON.stringify({vmServiceUri: sim.wsUri, device: 'sim', pid: null}), {mode: 0o600})
const env = {HOME: scratch, TAPIR_STATE_FILE: state}

try {
  timed(process.execPath, [bin, 'tapir:snap'], env) // warm the file cache once
  const node = []
  const snap = []
  for (let i = 0; i < samples; i++) {
    node.push(timed(process.execPath, ['-e', '0'], env))
    snap.push(timed(process.execPath, [bin, 'tapir:snap'], env))
  }
  const rows = [
    ['node -e 0', median(node)],
    ['tapir tapir:snap (sim)', median(snap)],
  ]
  console.log(`tapir bench: median of ${samples} runs each, interleaved, Node ${process.version}`)
  for (const [name, value] of rows) console.log(`  ${name.padEnd(34)} ${ms(value)}`)
  console.log(`  ${'ratio snap / node'.padEnd(34)} ${(median(snap) / median(node)).toFixed(2)}x (budget 2.5x)`)
} finally {
  await sim.close()
  rmSync(scratch, {recursive: true, force: true})
}
