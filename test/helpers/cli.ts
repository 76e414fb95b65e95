import {randomUUID} from 'node:crypto'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {execa} from 'execa'
import {afterAll} from 'vitest'

export const ROOT = resolve(import.meta.dirname, '..', '..')
export const BIN = join(ROOT, 'bin', 'run.cjs')

/** Put in the environment of every CLI this test file spawns, and so inherited by whatever that
 *  CLI starts: how `expectNoProcessLeft` (helpers/leftovers.ts) finds what the file left running. */
export const PROCESS_MARK = `TAPIR_TEST_MARK=${randomUUID()}`

/** This file's mark as an environment entry, for a process a test spawns its own way. */
export function markEnv(): Record<string, string> {
  const [name, value] = PROCESS_MARK.split('=') as [string, string]
  return {[name]: value}
}

/** The environment a spawned CLI runs with: a scratch HOME, no colour, this file's mark. */
export function cliEnv(env: Record<string, string> = {}, home = scratchHome()): Record<string, string> {
  return {HOME: home, NO_COLOR: '1', NODE_ENV: 'production', ...markEnv(), ...env}
}

export interface CliResult {
  stdout: string
  stderr: string
  exitCode: number
}

/** Spawns the built CLI the way a user does; HOME points at a scratch folder so no real
 *  session is read or written. */
export async function tapir(
  args: string[],
  options: {cwd?: string; env?: Record<string, string>; input?: string; home?: string} = {},
): Promise<CliResult> {
  const result = await execa(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: cliEnv(options.env, options.home),
    extendEnv: true,
    input: options.input,
    reject: false,
    timeout: 60_000,
  })
  return {stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode ?? -1}
}

let home: string | undefined
/** One scratch HOME per test file, made on first use. */
export function scratchHome(): string {
  home ??= mkdtempSync(join(tmpdir(), 'tapir-home-'))
  return home
}

// Registered while the importing test file is collected, so it runs after that file's tests
// (a worker is killed rather than exited, so an exit handler would not run).
afterAll(() => {
  if (home !== undefined) rmSync(home, {recursive: true, force: true})
  home = undefined
})

export function tempDir(prefix = 'tapir-test-'): {path: string; remove(): void} {
  const path = mkdtempSync(join(tmpdir(), prefix))
  return {path, remove: () => rmSync(path, {recursive: true, force: true})}
}

/** A session file naming a VM Service URI, as `tapir attach` would write it. */
export function sessionFile(dir: string, vmServiceUri: string, extra: Record<string, unknown> = {}): string {
  const path = join(dir, 'state.json')
  writeFileSync(path, JSON.stringify({vmServiceUri, pid: null, device: 'sim', ...extra}), {mode: 0o600})
  return path
}
