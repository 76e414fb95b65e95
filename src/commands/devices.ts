import {EXIT} from '../lib/output/exit-codes.js'
import type {Outcome} from '../lib/output/outcome.js'
import {listDevices} from '../lib/runtime/devices.js'
import type {FlagsOf} from '../oclif/tapir-command.js'
import {TapirCommand} from '../oclif/tapir-command.js'

const DEVICES_TIMEOUT_MS = 60_000

export default class Devices extends TapirCommand<typeof Devices> {
  static override summary =
    'List where tapir start can run the app: the simulated app (sim) and the devices flutter lists, web-server included.'
  static override description =
    'Each line is a device id for tapir start --device. flutter devices hides web-server unless asked (--show-web-server-device); tapir asks. Without flutter on PATH (or TAPIR_FLUTTER_BIN) only the sim is listed, with the reason on stderr.'
  static override examples = ['<%= config.bin %> devices', '<%= config.bin %> devices --json']

  protected parseInput() {
    return this.parse(Devices)
  }

  protected async outcome(flags: FlagsOf<typeof Devices>): Promise<Outcome> {
    const listed = await listDevices(process.env, Math.min(flags.timeout, DEVICES_TIMEOUT_MS))
    const notes = listed.flutterError === undefined ? [] : [`⚠ Only the sim: ${listed.flutterError}`]
    if (flags.json) return {stdout: JSON.stringify(listed), stderr: notes, exitCode: EXIT.ok}
    const lines = listed.devices.map(
      (device) => `${device.id}  ${device.name}${device.targetPlatform ? ` (${device.targetPlatform})` : ''}`,
    )
    return {stdout: lines.join('\n'), stderr: notes, exitCode: EXIT.ok}
  }
}
