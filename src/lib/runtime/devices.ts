import {execFile} from 'node:child_process'
import {messageOf} from '../errors.js'
import {findFlutter} from '../flutter/flutter-binary.js'
import {boolean, object, optional, readAs, string, type Infer} from '../shape.js'

/** What `flutter devices --machine` says of each device (flutter_tools, Device.toJson): the
 *  fields tapir shows; the rest is kept as flutter sent it. */
const flutterDevice = object({
  id: string,
  name: string,
  targetPlatform: optional(string),
  emulator: optional(boolean),
  isSupported: optional(boolean),
})
export type FlutterDevice = Infer<typeof flutterDevice>

/** The simulated app, listed beside flutter's devices: it needs no Flutter at all. */
export const SIM_DEVICE = {
  id: 'sim',
  name: 'tapir simulated app (no Flutter needed)',
  targetPlatform: 'sim',
  emulator: true,
  isSupported: true,
} as const

const MAX_OUTPUT_BYTES = 1024 * 1024

export interface DeviceList {
  devices: Array<FlutterDevice | typeof SIM_DEVICE>
  /** Why flutter's devices are missing (no flutter, it failed, it took too long), when they are. */
  flutterError?: string
}

/** The sim and what `flutter devices --machine` lists, within `timeoutMs`. flutter missing or
 *  failing is no error: the sim still runs, and the reason is in `flutterError`. */
export async function listDevices(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<DeviceList> {
  let flutter: string
  try {
    flutter = findFlutter(env)
  } catch (error) {
    return {devices: [SIM_DEVICE], flutterError: messageOf(error)}
  }
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      flutter,
      // flutter lists web-server only under its global flag (flutter_tools, flutter_command_runner.dart
      // runCommand sets WebServerDevice.showWebServerDevice), yet tapir start -d web-server runs it.
      ['--show-web-server-device', 'devices', '--machine'],
      {env, timeout: timeoutMs, maxBuffer: MAX_OUTPUT_BYTES, killSignal: 'SIGTERM'},
      (error, out, err) => {
        if (error) reject(new Error(`flutter devices --machine failed: ${String(err).trim().split('\n').at(-1) || error.message}`))
        else resolve(String(out))
      },
    )
  }).catch((error: Error) => error)
  if (stdout instanceof Error) return {devices: [SIM_DEVICE], flutterError: stdout.message}
  const devices = parseDevices(stdout)
  if (typeof devices === 'string') return {devices: [SIM_DEVICE], flutterError: devices}
  return {devices: [SIM_DEVICE, ...devices]}
}

/** flutter prints the JSON array, possibly after lines of its own (an upgrade notice). */
function parseDevices(stdout: string): FlutterDevice[] | string {
  const start = stdout.indexOf('[')
  let parsed: unknown
  try {
    parsed = JSON.parse(start === -1 ? stdout : stdout.slice(start))
  } catch {
    return 'flutter devices --machine printed no JSON list of devices.'
  }
  if (!Array.isArray(parsed)) return 'flutter devices --machine printed no JSON list of devices.'
  const devices: FlutterDevice[] = []
  for (const entry of parsed.slice(0, 100)) {
    const read = readAs(flutterDevice, entry)
    if ('value' in read) devices.push(read.value)
  }
  return devices
}
