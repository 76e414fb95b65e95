import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import CDP from 'chrome-remote-interface'
import {chromeBinary} from './chrome.js'
import {freePort} from './page-probe.js'

export interface OpenedPage {
  /** Every request the page made, the document's own included (CDP Network.requestWillBeSent). */
  requests: string[]
  /** An expression evaluated in the page, its value returned. */
  evaluate<T>(expression: string): Promise<T>
  /** A PNG of the whole page, written to `path`. */
  screenshot(path: string): Promise<Buffer>
}

export interface ReportBrowser {
  open(file: string): Promise<OpenedPage>
  close(): Promise<void>
}

/** A headless Chromium of the test's own, to look at report files as a user would. */
export async function reportBrowser(): Promise<ReportBrowser> {
  const binary = await chromeBinary()
  const port = await freePort()
  const profile = mkdtempSync(join(tmpdir(), 'tapir-report-chrome-'))
  const child: ChildProcess = spawn(
    binary,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--window-size=1100,900',
      `--user-data-dir=${profile}`,
      `--remote-debugging-port=${port}`,
      'about:blank',
    ],
    // Its own process group: a full Chromium (Debian's) runs helpers that write the profile
    // after the browser process is gone, so the whole group is ended before the profile goes.
    {stdio: 'ignore', detached: true},
  )
  const end = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {
      child.kill('SIGKILL')
    }
  }
  const removeProfile = () => rmSync(profile, {recursive: true, force: true, maxRetries: 20, retryDelay: 50})
  let client: CDP.Client | undefined
  const deadline = Date.now() + 30_000
  while (!client) {
    try {
      client = await CDP({host: '127.0.0.1', port, local: true})
    } catch (error) {
      if (Date.now() > deadline) {
        end()
        removeProfile()
        throw error
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const cdp = client
  const requests: string[] = []
  cdp.Network.requestWillBeSent((event) => requests.push(event.request.url))
  await cdp.Network.enable({})
  await cdp.Page.enable()
  const evaluate = async <T>(expression: string): Promise<T> => {
    const {result, exceptionDetails} = await cdp.Runtime.evaluate({expression, returnByValue: true})
    if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`)
    return result.value as T
  }
  return {
    async open(file) {
      requests.length = 0
      const loaded = cdp.Page.loadEventFired()
      await cdp.Page.navigate({url: pathToFileURL(file).href})
      await loaded
      return {
        requests,
        evaluate,
        async screenshot(path) {
          const height = await evaluate<number>('document.documentElement.scrollHeight')
          await cdp.Emulation.setDeviceMetricsOverride({width: 1100, height, deviceScaleFactor: 1, mobile: false})
          const {data} = await cdp.Page.captureScreenshot({format: 'png', captureBeyondViewport: true})
          await cdp.Emulation.clearDeviceMetricsOverride()
          const png = Buffer.from(data, 'base64')
          writeFileSync(path, png)
          return png
        },
      }
    },
    async close() {
      await cdp.close().catch(() => {})
      end()
      await new Promise((resolve) =>
        child.exitCode === null && child.signalCode === null ? child.once('exit', resolve) : resolve(undefined),
      )
      removeProfile()
    },
  }
}
