import {params} from '../verbs/define.js'
import type {ToolShape} from '../verbs/types.js'

/** tapir_run's parameters, in the catalogue's terms, for the MCP schema and the contract test. */
export const RUN_TOOL = {
  kind: 'destructive',
  tool: 'tapir_run',
  summary:
    'Run several verb lines against the app in one call (e.g. "tap --ref=e5"), each tokenised like a shell and run as the CLI command; stops at the first failure.',
  params: params(
    {
      name: 'steps',
      type: 'string[]',
      required: true,
      description: 'Verb lines without the tapir: prefix, run in order ("tap --ref=e5", "snap --grep Total").',
    },
    {
      name: 'continue',
      type: 'boolean',
      default: false,
      description: 'Keep running after a failing step; the first failure is still reported.',
    },
  ),
} satisfies ToolShape & {tool: string}
