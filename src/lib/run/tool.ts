import {params} from '../verbs/define.js'
import type {ToolShape} from '../verbs/types.js'

/** tapir_run's parameters, in the catalogue's terms, for the MCP schema and the contract test. */
export const RUN_TOOL = {
  kind: 'destructive',
  tool: 'tapir_run',
  title: 'Run verb lines',
  summary: "Run verb lines in the CLI's syntax, minus the tapir prefix, over one connection; stops at a failure.",
  params: params(
    {
      name: 'steps',
      type: 'string[]',
      required: true,
      brief: "Verb lines in the CLI's syntax, run in order.",
      description: 'Verb lines without the tapir: prefix, run in order ("tap --ref=e5", "snap --grep Total").',
    },
    {
      name: 'continue',
      type: 'boolean',
      default: false,
      brief: 'Keep going after a failed step.',
      description: 'Keep running after a failing step; the first failure is still reported.',
    },
  ),
} satisfies ToolShape & {tool: string}
