import type {SimHandle, SimOptions} from '../../src/lib/sim/index.js'
import {startSim} from '../../src/lib/sim/index.js'
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
