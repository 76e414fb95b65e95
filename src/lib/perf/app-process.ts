import {fileURLToPath} from 'node:url'
import {TapirError} from '../errors.js'
import {startArgs, type Launch} from './campaign-launch.js'

/** This tapir's own entry: a campaign starts and stops the app as a user would. */
const TAPIR_BIN = fileURLToPath(new URL('../../../bin/run.cjs', import.meta.url))

/** Runs `tapir <args> --state <file> [-- <rest>]` and fails with its last error line. */
function tapir(args: string[], sessionFile: string, cwd: string, rest: string[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    // A builtin loaded where used, not at the top: every start-up would pay for it (docs/architecture.md, Start-up).
    const child = process
      .getBuiltinModule('node:child_process')
      .spawn(process.execPath, [TAPIR_BIN, ...args, '--state', sessionFile, ...(rest.length > 0 ? ['--', ...rest] : [])], {
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

/** `tapir start --device=sim`, or for a real platform `tapir start --device=<id> [--cdp-port=N]
 *  -- <flutter args>` (the launch the campaign file gives), into the campaign's session file. */
export const startApp = (launch: Launch | undefined, sessionFile: string, cwd: string): Promise<void> => {
  if (!launch) return tapir(['start', '--device=sim'], sessionFile, cwd)
  const {args, flutterArgs} = startArgs(launch)
  return tapir(args, sessionFile, cwd, flutterArgs)
}

/** `tapir stop`: ends only what tapir started for that session. */
export const stopApp = (sessionFile: string, cwd: string): Promise<void> => tapir(['stop'], sessionFile, cwd)
