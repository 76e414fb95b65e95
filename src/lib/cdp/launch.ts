import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {openFreshLog} from '../write-atomic.js'
import {getDevToolsJson, NOT_JSON} from './devtools-http.js'
import {CdpError, reason} from './errors.js'
import {DEFAULT_WINDOW} from './presets.js'
import {needsNoSandbox, sandboxFacts} from './sandbox.js'
import {limitOf} from './time-limit.js'

export interface LaunchedChrome {
  pid: number
  /** The argv it was spawned with, binary first. A launcher script (`google-chrome`) may exec the
   *  browser with others, so the session records the process as the system reports it. */
  argv: string[]
  /** The throwaway profile, removed when the browser is stopped. */
  profileDir: string
  /** Ends the browser while it is still this process's own child (so the pid is certainly it). */
  kill(): void
}

/** Flags for a browser tapir drives: headless, no first-run or background noise, a throwaway
 *  profile; `--no-sandbox` only where the sandbox cannot start (see sandbox.ts). */
export function chromeArgs(options: {cdpPort: number; profileDir: string; url: string; noSandbox: boolean}): string[] {
  return [
    '--headless',
    ...(options.noSandbox ? ['--no-sandbox'] : []),
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-extensions',
    '--disable-background-timer-throttling',
    '--disable-renderer-backgrounding',
    '--mute-audio',
    '--password-store=basic',
    `--window-size=${DEFAULT_WINDOW.width},${DEFAULT_WINDOW.height}`,
    `--user-data-dir=${options.profileDir}`,
    `--remote-debugging-port=${options.cdpPort}`,
    options.url,
  ]
}

/** Starts Chrome detached on `url` with remote debugging on `cdpPort`, and waits until its
 *  DevTools endpoint answers. On failure nothing is left behind. */
export async function launchChrome(options: {
  binary: string
  cdpPort: number
  url: string
  logFile: string
  timeoutMs: number
}): Promise<LaunchedChrome> {
  const profileDir = mkdtempSync(join(tmpdir(), `tapir-chrome-${options.cdpPort}-`))
  const noSandbox = needsNoSandbox(sandboxFacts(options.binary))
  const args = chromeArgs({cdpPort: options.cdpPort, profileDir, url: options.url, noSandbox})
  const argv = [options.binary, ...args]
  const log = openFreshLog(options.logFile)
  // Loaded where used: `tapir test` shares the quick bundle, whose start-up pays for each builtin at the top.
  const child = process.getBuiltinModule('node:child_process').spawn(options.binary, args, {detached: true, stdio: ['ignore', log, log]})
  let exited = false
  child.once('exit', () => (exited = true))
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve))
  child.unref()
  const deadline = Date.now() + options.timeoutMs
  let lastError: unknown = new Error('no answer')
  while (Date.now() < deadline && !exited) {
    const failed = await Promise.race([spawnError, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100))])
    if (failed) {
      lastError = failed
      break
    }
    try {
      const version = await getDevToolsJson(options.cdpPort, '/json/version', limitOf(Math.max(1, deadline - Date.now())))
      if (version === NOT_JSON) throw new Error('/json/version is not JSON')
      const kill = (): void => {
        if (!exited) child.kill('SIGKILL')
        removeProfile(profileDir)
      }
      const {pid} = child
      if (pid === undefined) throw new Error('Chrome answers, but its process has no id')
      return {pid, argv, profileDir, kill}
    } catch (error) {
      lastError = error
    }
  }
  if (child.pid !== undefined && !exited) child.kill('SIGKILL')
  removeProfile(profileDir)
  throw new CdpError(
    `Chrome did not open its DevTools port ${options.cdpPort} within ${options.timeoutMs} ms (${reason(lastError)}); see ${options.logFile}.`,
  )
}

/** Chrome's helpers may still be writing when it exits: retry a little. */
export function removeProfile(profileDir: string): void {
  rmSync(profileDir, {recursive: true, force: true, maxRetries: 5, retryDelay: 100})
}
