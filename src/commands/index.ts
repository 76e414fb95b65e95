import {VERBS} from '../lib/verbs/index.js'
import {verbCommand} from '../oclif/verb-command.js'
import Attach from './attach.js'
import Devices from './devices.js'
import Doctor from './doctor.js'
import Install from './install.js'
import Logs from './logs.js'
import McpInstall from './mcp/install.js'
import McpServe from './mcp/serve.js'
import McpUninstall from './mcp/uninstall.js'
import MergeReports from './merge-reports.js'
import RecordCommand from './record.js'
import {HOT_RESTART, RELOAD, reloadCommand} from './reload-command.js'
import Restart from './restart.js'
import Run from './run.js'
import ShowTrace from './show-trace.js'
import Start from './start.js'
import Status from './status.js'
import Stop from './stop.js'
import Test from './test.js'
import TraceCommand from './trace.js'
import Uninstall from './uninstall.js'

/** Every command id and its class, the list oclif reads (package.json's oclif.commands): the
 *  session commands, then tapir:run, then one `tapir:<verb>` per catalogue verb. */
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
  'show-trace': ShowTrace,
  start: Start,
  status: Status,
  stop: Stop,
  test: Test,
  trace: TraceCommand,
  uninstall: Uninstall,
  'mcp:install': McpInstall,
  'mcp:serve': McpServe,
  'mcp:uninstall': McpUninstall,
  'tapir:run': Run,
  ...Object.fromEntries(VERBS.map((verb) => [`tapir:${verb.name}`, verbCommand(verb)])),
}
