import Attach from '../commands/attach.js'
import Devices from '../commands/devices.js'
import Doctor from '../commands/doctor.js'
import Install from '../commands/install.js'
import Logs from '../commands/logs.js'
import McpInstall from '../commands/mcp/install.js'
import McpServe from '../commands/mcp/serve.js'
import McpUninstall from '../commands/mcp/uninstall.js'
import MergeReports from '../commands/merge-reports.js'
import RecordCommand from '../commands/record.js'
import {HOT_RESTART, RELOAD, reloadCommand} from '../commands/reload-command.js'
import Restart from '../commands/restart.js'
import Start from '../commands/start.js'
import Status from '../commands/status.js'
import Stop from '../commands/stop.js'
import Test from '../commands/test.js'
import Uninstall from '../commands/uninstall.js'
import {VERB_COMMANDS} from './verb-commands.js'

/** Every command id and its class: the session commands, then tapir:run and the verbs. */
export const COMMANDS = {
  attach: Attach,
  devices: Devices,
  doctor: Doctor,
  'hot-restart': reloadCommand(HOT_RESTART),
  install: Install,
  logs: Logs,
  'merge-reports': MergeReports,
  record: RecordCommand,
  reload: reloadCommand(RELOAD),
  restart: Restart,
  start: Start,
  status: Status,
  stop: Stop,
  test: Test,
  uninstall: Uninstall,
  'mcp:install': McpInstall,
  'mcp:serve': McpServe,
  'mcp:uninstall': McpUninstall,
  ...VERB_COMMANDS,
}
