#!/usr/bin/env node
// npm run demo: start the simulated app, drive a short session through the real CLI, stop.
import {execFileSync} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bin = join(root, 'bin', 'run.cjs')
const scratch = mkdtempSync(join(tmpdir(), 'tapir-demo-'))
const env = {...process.env, TAPIR_STATE_FILE: join(scratch, 'state.json')}

function tapir(...args) {
  console.log(`\n$ tapir ${args.map((arg) => (/[\s"]/.test(arg) ? JSON.stringify(arg) : arg)).join(' ')}`)
  const output = execFileSync(process.execPath, [bin, ...args], {env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit']})
  process.stdout.write(output)
  return output
}

const refOf = (snapshot, pattern) => {
  const line = snapshot.split('\n').find((candidate) => pattern.test(candidate))
  const ref = line && /\[ref=(e\d+)\]/.exec(line)?.[1]
  if (!ref) throw new Error(`no line matching ${pattern} in the snapshot`)
  return ref
}

try {
  tapir('start', '--device=sim')
  const login = tapir('tapir:snap', '--interactiveOnly')
  const found = JSON.parse(tapir('tapir:find', '--text=Sign in'))
  tapir('tapir:fill', `--ref=${refOf(login, /textbox "Email"/)}`, '--text=ada@example.com')
  tapir('tapir:fill', `--ref=${refOf(login, /textbox "Password"/)}`, '--text=hunter22')
  tapir('tapir:tap', `--ref=${found.ref}`)
  tapir('tapir:wait', '--text=Monitors')
  tapir('tapir:snap', '--interactiveOnly')
  console.log('\nThe tap on "Sign in" led to the Monitors screen above.')
} finally {
  tapir('stop')
  rmSync(scratch, {recursive: true, force: true})
}
