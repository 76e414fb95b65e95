import {spawn} from 'node:child_process'
import {fileURLToPath} from 'node:url'
import {TapirError} from '../errors.js'
import type {Platform} from './scenario-types.js'

/** This tapir's own entry: a campaign starts and stops the app as a user would. */
const TAPIR_BIN = fileURLToPath(new URL('../../../bin/run.js', import.meta.url))

/** The only platform tapir can start today. */
export const STARTABLE: readonly Platform[] = ['sim']

export function refuseUnstartable(platform: Platform): void {
  if (STARTABLE.includes(platform)) return
  throw new TapirError(
    `tapir can start only the simulated app today (--platform=sim), not ${platform}. For ${platform}, start the app yourself (flutter run, then tapir attach) and run tapir:perf_run for each scenario.`,
    'local',
  )
}

/** Runs `tapir <args> --state <file>` and fails with its last error line. */
function tapir(args: string[], sessionFile: string, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TAPIR_BIN, ...args, '--state', sessionFile], {
      cwd,
      env: process.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.once('error', (error) => reject(new TapirError(`tapir ${args[0]} could not run: ${error.message}`, 'local')))
    child.once('exit', (code) => {
      if (code === 0) resolve()
      else
        reject(
          new TapirError(
            `tapir ${args.join(' ')} failed (exit ${code}): ${stderr.trim().split('\n').at(-1)?.replace(/^✗ /, '') ?? ''}`,
            'local',
          ),
        )
    })
  })
}

/** `tapir start --device=sim` into the campaign's session file. */
export const startApp = (platform: Platform, sessionFile: string, cwd: string): Promise<void> => {
  refuseUnstartable(platform)
  return tapir(['start', '--device=sim'], sessionFile, cwd)
}

/** `tapir stop`: ends only what tapir started for that session. */
export const stopApp = (sessionFile: string, cwd: string): Promise<void> => tapir(['stop'], sessionFile, cwd)
