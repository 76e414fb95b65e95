import type {AnyCommand} from '../lib/commands/types.js'
import {ATTACH} from './attach.js'
import {DEVICES} from './devices.js'
import {DOCTOR} from './doctor.js'
import {INSTALL} from './install.js'
import {LOGS} from './logs.js'
import {MCP_INSTALL} from './mcp/install.js'
import {MCP_SERVE} from './mcp/serve.js'
import {MCP_UNINSTALL} from './mcp/uninstall.js'
import {MERGE_REPORTS} from './merge-reports.js'
import {RECORD} from './record.js'
import {HOT_RESTART_COMMAND, RELOAD_COMMAND} from './reload-command.js'
import {RESTART} from './restart.js'
import {RUN} from './run.js'
import {SHOW_TRACE} from './show-trace.js'
import {START} from './start.js'
import {STATUS} from './status.js'
import {STOP} from './stop.js'
import {TEST} from './test.js'
import {TRACE} from './trace.js'
import {UNINSTALL} from './uninstall.js'

/** Every command as data, the one list: the one reader and runner take a line of any of them
 *  (src/cli/main.ts), oclif's help is made from them (index.ts), and those with MCP facts are
 *  the MCP server's session tools. */
export const COMMANDS: readonly AnyCommand[] = [
  ATTACH,
  DEVICES,
  DOCTOR,
  HOT_RESTART_COMMAND,
  INSTALL,
  LOGS,
  MERGE_REPORTS,
  RECORD,
  RELOAD_COMMAND,
  RESTART,
  SHOW_TRACE,
  START,
  STATUS,
  STOP,
  TEST,
  TRACE,
  UNINSTALL,
  MCP_INSTALL,
  MCP_SERVE,
  MCP_UNINSTALL,
  RUN,
]
