import {tapirError} from '../errors.js'
import type {ExtensionHandler} from './extension-handler.js'

const MIN_POLL_INTERVAL_MS = 100

/** Waits for `idleMs` of zero in-flight requests; a timeout is a `timeout` error naming the peak seen. */
export const waitForNetworkIdleHandler: ExtensionHandler = {
  name: 'wait_for_network_idle',
  cites: 'tapir_wait_for_network_idle',
  wakesFrames: true,
  async run(app, params) {
    const timeoutMs = params.int('timeoutMs', 5000)
    const idleMs = params.int('idleMs', 500)
    const pollMs = Math.max(MIN_POLL_INTERVAL_MS, params.int('pollIntervalMs', 200))
    const started = app.now()
    let idleSince: number | null = null
    let peak = 0
    for (;;) {
      const now = app.now()
      const inFlight = app.diagnostics.inFlight()
      peak = Math.max(peak, inFlight)
      idleSince = inFlight === 0 ? (idleSince ?? now) : null
      if (idleSince !== null && now - idleSince >= idleMs) return {matched: true, idleAchievedMs: now - started}
      if (now - started >= timeoutMs) throw tapirError(`max in-flight count observed: ${peak}`, 'timeout')
      await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(1, started + timeoutMs - now))))
    }
  },
}
