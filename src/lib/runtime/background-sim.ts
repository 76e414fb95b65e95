import {spawn} from 'node:child_process'
import {mkdirSync, openSync, readFileSync, rmSync} from 'node:fs'
import {dirname} from 'node:path'
import {fileURLToPath} from 'node:url'
import {TapirError} from '../errors.js'
import {EXIT} from '../output/exit-codes.js'
import {isAlive, terminate} from '../session/process.js'

/** The simulated app's entry; also how `tapir stop` recognises the process as the sim. */
export const SIM_MAIN = fileURLToPath(new URL('../sim/main.js', import.meta.url))

/** Starts the simulated app as a detached process and waits for the URI it announces. */
export async function startSimInBackground(options: {mode: 'vm' | 'dds' | 'dwds'; port: number; webPort?: number; logFile: string; timeoutMs: number}): Promise<{pid: number; httpUri: string; webUri?: string}> {
  mkdirSync(dirname(options.logFile), {recursive: true, mode: 0o700})
  const readyFile = `${options.logFile}.${process.pid}.ready`
  rmSync(readyFile, {force: true})
  rmSync(options.logFile, {force: true}) // so the log is created anew, owner-only: it names the URI
  const log = openSync(options.logFile, 'w', 0o600)
  const webArgs = options.webPort === undefined ? [] : ['--web-port', String(options.webPort)]
  const child = spawn(process.execPath, [SIM_MAIN, '--mode', options.mode, '--port', String(options.port), ...webArgs, '--ready-file', readyFile], {
    detached: true,
    stdio: ['ignore', log, log],
  })
  child.unref()
  const pid = child.pid
  if (pid === undefined) throw new TapirError('Could not start the simulated app.', EXIT.failed)
  const deadline = Date.now() + options.timeoutMs
  while (Date.now() < deadline) {
    try {
      const ready = JSON.parse(readFileSync(readyFile, 'utf8')) as {httpUri: string; webUri?: string}
      rmSync(readyFile, {force: true})
      return {pid, httpUri: ready.httpUri, ...(ready.webUri === undefined ? {} : {webUri: ready.webUri})}
    } catch {
      if (!isAlive(pid)) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  await terminate(pid)
  rmSync(readyFile, {force: true})
  throw new TapirError(`The simulated app did not start within ${options.timeoutMs} ms; see ${options.logFile}.`, EXIT.failed)
}
