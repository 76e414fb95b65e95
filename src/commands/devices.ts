import {defineCommand} from '../lib/commands/types.js'
import {EXIT} from '../lib/output/exit-codes.js'
import type {Outcome} from '../lib/output/outcome.js'
import {listDevices} from '../lib/runtime/devices.js'

const DEVICES_TIMEOUT_MS = 60_000

export const DEVICES = defineCommand({
  id: 'devices',
  summary: 'List where tapir start can run the app: the simulated app (sim) and the devices flutter lists, web-server included.',
  description:
    'Each line is a device id for tapir start --device. flutter devices hides web-server unless asked (--show-web-server-device); tapir asks. Without flutter on PATH (or TAPIR_FLUTTER_BIN) only the sim is listed, with the reason on stderr.',
  examples: ['<%= config.bin %> devices', '<%= config.bin %> devices --json'],
  params: [],
  globals: 'all',
  session: 'none',
  mcp: {
    tool: 'tapir_devices',
    title: 'List devices',
    summary: "List the device ids tapir_start takes: sim and flutter's devices.",
    kind: 'read',
    params: [],
    input: () => ({}),
  },
  async run(flags): Promise<Outcome> {
    const listed = await listDevices(process.env, Math.min(flags.timeout, DEVICES_TIMEOUT_MS))
    const notes = listed.flutterError === undefined ? [] : [`⚠ Only the sim: ${listed.flutterError}`]
    if (flags.json) return {stdout: JSON.stringify(listed), stderr: notes, exitCode: EXIT.ok}
    const lines = listed.devices.map(
      (device) => `${device.id}  ${device.name}${device.targetPlatform ? ` (${device.targetPlatform})` : ''}`,
    )
    return {stdout: lines.join('\n'), stderr: notes, exitCode: EXIT.ok}
  },
})
