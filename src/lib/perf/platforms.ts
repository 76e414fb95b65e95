import {UsageError} from '../errors.js'
import {PLATFORMS, type Platform} from './scenario-types.js'

/** The perf platform of a session's device: chrome for a browser, android for a serial or an
 *  emulator, ios for a UDID, sim for the simulated app. */
export function platformOfDevice(device: string | undefined): Platform {
  if (device === 'sim') return 'sim'
  if (device === 'chrome' || device === 'web-server') return 'chrome'
  if (device !== undefined && /^(emulator-\d+|[0-9a-z]{8,16}|\d+\.\d+\.\d+\.\d+:\d+)$/i.test(device) && !/^[0-9a-f]{8}-/i.test(device))
    return 'android'
  if (device !== undefined && /^[0-9a-f]{8}-[0-9a-f-]{16,}$/i.test(device)) return 'ios'
  throw new UsageError(
    (words) =>
      `Cannot tell the perf platform from the session's device (${device ?? 'none recorded'}); pass ${words.arg('platform', PLATFORMS.join('|'))}.`,
  )
}
