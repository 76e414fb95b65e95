import {TapirError} from '../errors.js'
import {into, isMap, unknownKeys} from './scenario-entries.js'
import type {Platform} from './scenario-types.js'

/** How a campaign starts its app on a real platform: `tapir start --device=<device>
 *  [--cdp-port=<port>] -- <flutter args>`, from the campaign file's `android:`, `ios:` or `chrome:` key. */
export interface Launch {
  device: string
  flutterArgs: string[]
  cdpPort?: number
}

export type DevicePlatform = Exclude<Platform, 'sim'>
export const DEVICE_PLATFORMS: readonly DevicePlatform[] = ['android', 'ios', 'chrome']

/** The Chrome DevTools port a chrome: key gets when it names none. */
export const DEFAULT_CDP_PORT = 9222
/** A flutter device id: an emulator, a serial, an ip:port, a UDID; never a flag. */
const DEVICE = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/
const MAX_FLUTTER_ARGS = 64
const MAX_ARG_LENGTH = 1000

const EXAMPLES: Record<DevicePlatform, string> = {
  android: 'android: {device: emulator-5554, flutter_args: [--profile]}',
  ios: 'ios: {device: <the UDID from flutter devices>, flutter_args: [--profile]}',
  chrome: 'chrome: {cdp_port: 9222, flutter_args: [--profile]}',
}

/** What the original campaign's android: key held; tapir does none of it yet, and says so. */
const ANDROID_PREP = ['avd', 'reverse', 'grant']

const isPort = (value: unknown): value is number => Number.isInteger(value) && typeof value === 'number' && value >= 1 && value <= 65535

/** Reads a platform key of a campaign file; problems go to `problems`. */
export function readLaunch(value: unknown, platform: DevicePlatform, problems: string[]): Launch | undefined {
  if (!isMap(value)) {
    problems.push(`${platform}: must be a map, e.g. ${EXAMPLES[platform]}`)
    return undefined
  }
  const keys = platform === 'chrome' ? ['cdp_port', 'flutter_args'] : ['device', 'flutter_args']
  for (const key of Object.keys(value))
    if (platform === 'android' && ANDROID_PREP.includes(key))
      problems.push(
        `android.${key}: tapir does not boot emulators, forward ports or grant permissions; boot the device yourself and name it in android.device`,
      )
  unknownKeys(
    Object.fromEntries(Object.entries(value).filter(([key]) => !(platform === 'android' && ANDROID_PREP.includes(key)))),
    keys,
    platform,
    into(problems),
  )
  const flutterArgs = readArgs(value.flutter_args, `${platform}.flutter_args`, problems)
  if (platform === 'chrome') {
    const port = value.cdp_port ?? DEFAULT_CDP_PORT
    if (!isPort(port)) {
      problems.push(`chrome.cdp_port: must be a port number, 1 to 65535 (got ${JSON.stringify(port)})`)
      return undefined
    }
    return {device: 'chrome', flutterArgs, cdpPort: port}
  }
  const device = value.device
  if (typeof device !== 'string' || !DEVICE.test(device)) {
    problems.push(
      device === undefined
        ? `${platform}.device: required, the flutter device id to run on (flutter devices lists them)`
        : `${platform}.device: must be a flutter device id (letters, digits, . _ : -), got ${JSON.stringify(device).slice(0, 80)}`,
    )
    return undefined
  }
  return {device, flutterArgs}
}

function readArgs(value: unknown, where: string, problems: string[]): string[] {
  if (value === undefined) return []
  if (!Array.isArray(value) || value.length > MAX_FLUTTER_ARGS) {
    problems.push(`${where}: must be a list of at most ${MAX_FLUTTER_ARGS} arguments for flutter run`)
    return []
  }
  const args: string[] = []
  for (const [index, arg] of value.entries()) {
    // eslint-disable-next-line no-control-regex -- an argument with control characters is a mistake
    if (typeof arg !== 'string' || arg === '' || arg.length > MAX_ARG_LENGTH || /[\u0000-\u001f]/.test(arg))
      problems.push(`${where}[${index}]: must be a non-empty line of text`)
    else args.push(arg)
  }
  return args
}

/** The launch for a platform, or the one-line refusal when the campaign file does not configure it. */
export function launchFor(platform: DevicePlatform, launches: Partial<Record<DevicePlatform, Launch>>, file: string): Launch {
  const launch = launches[platform]
  if (launch) return launch
  throw new TapirError(
    `The campaign file ${file} does not configure ${platform}, so tapir cannot start the app there: add ${EXAMPLES[platform]}`,
    'usage',
  )
}

/** The `tapir start` arguments for a launch (the session file is added by the caller, before `--`). */
export function startArgs(launch: Launch): {args: string[]; flutterArgs: string[]} {
  return {
    args: ['start', `--device=${launch.device}`, ...(launch.cdpPort === undefined ? [] : [`--cdp-port=${launch.cdpPort}`])],
    flutterArgs: launch.flutterArgs,
  }
}
