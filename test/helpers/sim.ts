import {afterAll, beforeAll, expect} from 'vitest'
import type {SimHandle, SimOptions} from '../../src/sim/index.js'
import {startSim} from '../../src/sim/index.js'
import type {CliResult} from './cli.js'
import {sessionFile, tapir, tempDir} from './cli.js'

export interface SimSession {
  sim: SimHandle
  /** The session file naming the sim. */
  state: string
  dir: string
  /** Runs `tapir <args> --state <state>`. */
  run(args: string[], options?: {input?: string; env?: Record<string, string>}): Promise<CliResult>
  close(): Promise<void>
}

/** A sim on a free port and a session file that names it, as `tapir attach` leaves it. */
export async function simSession(options: SimOptions = {}): Promise<SimSession> {
  const sim = await startSim(options)
  const dir = tempDir()
  const state = sessionFile(dir.path, sim.httpUri)
  return {
    sim,
    state,
    dir: dir.path,
    run: (args, runOptions = {}) => tapir([...args, '--state', state], runOptions),
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

/** Signs in through the CLI so the app shows /monitors. */
export async function signIn(s: SimSession): Promise<void> {
  const result = await s.run(['tapir:run', 'find --key=email', 'fill --ref=q1 --text=ada@example.com', 'find --key=password', 'fill --ref=q2 --text=hunter22', 'find --key=signIn', 'tap --ref=q3', 'wait --text=Monitors'])
  if (result.exitCode !== 0) throw new Error(`sign-in failed: ${result.stdout}\n${result.stderr}`)
}

/** A sim session for the enclosing describe: started before its tests, checked for protocol
 *  violations and closed after them. */
export function withSimSession(options: SimOptions = {}): SimSession {
  let session: SimSession | undefined
  beforeAll(async () => {
    session = await simSession(options)
  })
  afterAll(async () => {
    expect(session!.sim.violations).toEqual([])
    await session!.close()
  })
  return new Proxy({} as SimSession, {get: (_target, key) => session![key as keyof SimSession]})
}
