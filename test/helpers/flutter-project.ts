import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {delimiter, join} from 'node:path'
import {execa, type ResultPromise} from 'execa'
import {BIN, cliEnv, ROOT, tapir, tempDir} from './cli.js'

export const FAKE_FLUTTER_DIR = join(ROOT, 'test', 'fixtures', 'fake-flutter')
export const PATH_WITH_FAKE = [FAKE_FLUTTER_DIR, process.env.PATH].join(delimiter)

export type Session = {
  vmServiceUri: string | null
  booting?: boolean
  device: string
  log: string
  supervisorSocket?: string | null
  startArgs?: string[]
  processes: Record<string, {pid: number; argv: string[]}>
}

/** Running: a zombie (exited, waiting for a parent that may never reap it here) is gone. */
export const alive = (pid: number): boolean => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z'
  } catch {
    return false
  }
}

export const childrenOf = (pid: number): number[] => {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], {encoding: 'utf8'})
      .split('\n')
      .filter(Boolean)
      .map(Number)
  } catch {
    return []
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `check` every 20 ms for up to `ms`; its last answer. */
export async function waitFor<T>(check: () => T, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms
  let seen = check()
  while (!seen && Date.now() < deadline) {
    await sleep(20)
    seen = check()
  }
  return seen
}

/** A Flutter project folder (a pubspec.yaml) with the source the fake flutter compiles, a session
 *  file of its own, and a temp folder of its own (TMPDIR), so the supervisor's socket folder and
 *  anything else left there can be counted. */
export function flutterProject() {
  const dir = tempDir('tapir-flutter-')
  writeFileSync(join(dir.path, 'pubspec.yaml'), 'name: demo\n')
  mkdirSync(join(dir.path, 'lib'))
  const tmp = join(dir.path, 'tmp')
  mkdirSync(tmp)
  const source = join(dir.path, 'lib', 'tapir_source.json')
  const state = join(dir.path, 'state.json')
  const env = (extra: Record<string, string> = {}) =>
    cliEnv({PATH: PATH_WITH_FAKE, TAPIR_STATE_FILE: state, TAPIR_FLUTTER_BIN: '', TMPDIR: tmp, ...extra})
  const run = (args: string[], extra: Record<string, string> = {}) => tapir(args, {cwd: dir.path, env: env(extra)})
  /** The CLI spawned and left running, for a test that interrupts or reads it as it goes. */
  const spawn = (args: string[], extra: Record<string, string> = {}): ResultPromise<{reject: false}> =>
    execa(process.execPath, [BIN, ...args], {cwd: dir.path, env: env(extra), extendEnv: true, reject: false})
  const session = (): Session | undefined => (existsSync(state) ? (JSON.parse(readFileSync(state, 'utf8')) as Session) : undefined)
  const setTitle = (title: string) => writeFileSync(source, JSON.stringify({signInTitle: title}))
  /** The supervisors' socket folders left in this project's temp folder. */
  const socketFolders = () => readdirSync(tmp).filter((name) => name.startsWith('tapir-run-'))
  return {dir, tmp, source, state, env, run, spawn, session, setTitle, socketFolders}
}
