import {readdirSync, readFileSync} from 'node:fs'
import {createServer} from 'node:net'
import CDP from 'chrome-remote-interface'

/** What the page itself reports, read through a DevTools session of the test's own (a second
 *  session sees the overrides another one holds). */
export async function pageReport(
  cdpPort: number,
): Promise<{width: number; height: number; dpr: number; touchPoints: number; text: string; visibility: string}> {
  const client = await CDP({host: '127.0.0.1', port: cdpPort, local: true})
  try {
    const expression =
      'JSON.stringify({width: innerWidth, height: innerHeight, dpr: devicePixelRatio, touchPoints: navigator.maxTouchPoints, text: document.body.innerText, visibility: document.visibilityState})'
    const {result} = await client.Runtime.evaluate({expression, returnByValue: true})
    return JSON.parse(result.value as string)
  } finally {
    await client.close()
  }
}

/** Minimises the page's window, as a user hiding the browser does: the tab goes hidden. */
export async function minimizeWindow(cdpPort: number): Promise<void> {
  const client = await CDP({host: '127.0.0.1', port: cdpPort, local: true})
  try {
    const {windowId} = await client.Browser.getWindowForTarget({})
    await client.Browser.setWindowBounds({windowId, bounds: {windowState: 'minimized'}})
  } finally {
    await client.close()
  }
}

export async function windowBounds(cdpPort: number): Promise<{width?: number; height?: number}> {
  const client = await CDP({host: '127.0.0.1', port: cdpPort, local: true})
  try {
    return (await client.Browser.getWindowForTarget({})).bounds
  } finally {
    await client.close()
  }
}

/** Polls until `check` passes (the page reports its window a few times a second). */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (check(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as {port: number}).port
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Pids of live processes whose command line holds `marker` (a Chrome's own profile folder). */
export function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)
      } catch {
        return false
      }
    })
    .map(Number)
}

/** Width and height from a PNG's IHDR. */
export function pngSize(bytes: Buffer): {width: number; height: number} {
  if (bytes.subarray(1, 4).toString('latin1') !== 'PNG') throw new Error('not a PNG')
  return {width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20)}
}
