import {afterAll, beforeAll, expect} from 'vitest'
import type {SimHandle, SimOptions} from '../../src/sim/index.js'
import {startSim} from '../../src/sim/index.js'
import type {CliResult} from './cli.js'
import {sessionFile, tapir, tempDir} from './cli.js'
import {runCommand} from './run-command.js'

type RunOptions = {input?: string; env?: Record<string, string>}

/** How a session's `run` reaches tapir: spawning the built CLI, or in this process through
 *  the one reader and runner (the same output and exit code, without a process's start-up). */
export type Runner = 'spawned' | 'in-process'

export interface SimSession {
  sim: SimHandle
  /** The session file naming the sim. */
  state: string
  dir: string
  /** Runs `tapir <args> --state <state>`, the session's way. */
  run(args: string[], options?: RunOptions): Promise<CliResult>
  /** Runs `tapir <args> --state <state>` in a process of its own, whatever the session's way. */
  spawn(args: string[], options?: RunOptions): Promise<CliResult>
  close(): Promise<void>
}

/** A sim on a free port and a session file that names it, as `tapir attach` leaves it. */
export async function simSession(options: SimOptions = {}, runner: Runner = 'spawned'): Promise<SimSession> {
  const sim = await startSim(options)
  const dir = tempDir()
  const state = sessionFile(dir.path, sim.httpUri)
  const spawn = (args: string[], runOptions: RunOptions = {}) => tapir([...args, '--state', state], runOptions)
  const inProcess = async (args: string[], runOptions: RunOptions = {}) => {
    if (runOptions.input !== undefined) throw new Error('stdin comes through the process boundary: use spawn')
    return runCommand([...args, '--state', state], runOptions)
  }
  return {
    sim,
    state,
    dir: dir.path,
    run: runner === 'in-process' ? inProcess : spawn,
    spawn,
    close: async () => {
      await sim.close()
      dir.remove()
    },
  }
}

/** The eN of the first snapshot line matching `pattern`. */
export function refOf(snapshot: string, pattern: RegExp): string {
  const line = snapshot.split('\n').find((candidate) => pattern.test(candidate))
  const ref = line ? /\[ref=(e\d+)\]/.exec(line)?.[1] : undefined
  if (!ref) throw new Error(`no line matching ${pattern} in:\n${snapshot}`)
  return ref
}

/** tapir:run steps that sign in on the login screen, so the app shows /monitors. */
export const SIGN_IN_STEPS = [
  'find --key=email',
  'fill --ref=q1 --text=ada@example.com',
  'find --key=password',
  'fill --ref=q2 --text=hunter22',
  'find --key=signIn',
  'tap --ref=q3',
  'wait --text=Monitors',
]

/** The same on an app with no package, where find has no keys: by labels, as a user reads them. */
export const ZERO_INSTALL_SIGN_IN_STEPS = [
  'find --text=Email --as=email',
  'fill --ref=@email --text=ada@example.com',
  'find --semanticsLabel=Password --as=password',
  'fill --ref=@password --text=hunter22',
  "find --semanticsLabel='Sign in' --as=sign_in --matches=2",
  'tap --ref=@sign_in',
  'wait --text=Monitors',
]

/** A sign-in by refs on an app with no package, as the zero-install perf tests measure it. */
export const MEASURED_SIGN_IN_STEPS = [
  'fill --ref=e2 --text=ada@example.com',
  'fill --ref=e4 --text=hunter22',
  'tap --ref=e6',
  'wait --text=Monitors --timeoutMs=3000',
]

/**
 * Lets the sim's frames of an interaction start before a timing perf_end reads its window. The sim
 * draws at once and lays each draw's frames on the vsyncs after the ones already laid
 * (src/sim/app/frame-timings.ts), so a quick burst of calls and a page transition run up to about
 * 300 ms ahead of the call that drew them, and perf_end counts only frames that started by its end.
 * A real agent measuring a transition likewise lets it finish before perf_end.
 */
export const letFramesStart = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 600))

/** Signs in through the CLI so the app shows /monitors. */
export async function signIn(s: SimSession): Promise<void> {
  const result = await s.run(['tapir:run', ...SIGN_IN_STEPS])
  if (result.exitCode !== 0) throw new Error(`sign-in failed: ${result.stdout}\n${result.stderr}`)
}

/** A sim session for the enclosing describe: started before its tests, checked for protocol
 *  violations and closed after them. */
export function withSimSession(options: SimOptions = {}, runner: Runner = 'spawned'): SimSession {
  let session: SimSession | undefined
  beforeAll(async () => {
    session = await simSession(options, runner)
  })
  afterAll(async () => {
    expect(session!.sim.violations).toEqual([])
    await session!.close()
  })
  return new Proxy({} as SimSession, {get: (_target, key) => session![key as keyof SimSession]})
}
