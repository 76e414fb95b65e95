import {TapirError} from '../errors.js'

/** Runs a campaign hook through the user's own shell: the campaign file is the user's script.
 *  Its output goes to stderr, so stdout stays the campaign's result. */
export function runHook(name: string, command: string, variables: Record<string, string>, cwd: string): Promise<void> {
  const shell = process.env.SHELL || '/bin/sh'
  return new Promise((resolve, reject) => {
    // A builtin loaded where used, not at the top: every start-up would pay for it (docs/architecture.md, Start-up).
    const child = process
      .getBuiltinModule('node:child_process')
      .spawn(shell, ['-c', command], {cwd, env: {...process.env, ...variables}, stdio: ['ignore', 2, 2]})
    child.once('error', (error) => reject(new TapirError(`Hook ${name} could not start ${shell}: ${error.message}`, 'local')))
    child.once('exit', (code, signal) => {
      if (code === 0) resolve()
      else reject(new TapirError(`Hook ${name} failed (${signal ? `killed by ${signal}` : `exit ${code}`}): ${command}`, 'local'))
    })
  })
}
