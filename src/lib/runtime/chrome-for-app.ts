import {createServer} from 'node:net'
import {CdpError} from '../cdp/errors.js'
import {removeProfile} from '../cdp/launch.js'
import type {Session} from '../session/session.js'

/** Refuses a DevTools port something already listens on: Chrome would fail to bind it, and tapir
 *  would then talk to whatever owns it. */
export async function ensureCdpPortFree(port: number): Promise<void> {
  const server = createServer()
  const free = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => resolve(true))
  })
  if (free) await new Promise((resolve) => server.close(resolve))
  else
    throw new CdpError(
      (words) =>
        `CDP port ${port} is already in use; ${words.only('pass --cdp-port <free-port> or free it before running start', 'give another cdpPort, or free it')}.`,
    )
}

/** Removes the throwaway profile tapir made for the browser (only one it made: a tapir-chrome- folder). */
export function removeChromeProfile(session: Session): void {
  const dir = session.tmpProfileDir
  // Only the profile the recorded browser was launched with: a path planted in the session alone is not enough.
  const launchedWith = session.processes?.chrome?.argv.includes(`--user-data-dir=${String(dir)}`) === true
  if (typeof dir === 'string' && launchedWith && /[/\\]tapir-chrome-\d+-[^/\\]+$/.test(dir)) removeProfile(dir)
}
