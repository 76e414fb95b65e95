import {params} from '../verbs/define.js'
import type {ToolShape} from '../verbs/types.js'

/** tapir_trace_summary: a trace read back as a few lines, for an agent to explain a failure. */
export const TRACE_SUMMARY_TOOL = {
  kind: 'read',
  tool: 'tapir_trace_summary',
  title: 'Trace summary',
  summary: 'Summarize a trace: steps, failures, first exception.',
  params: params({
    name: 'file',
    type: 'string',
    brief: "Default: this server's trace.",
    description: "The trace file; by default the one this server writes (mcp:serve --trace), else the session's (tapir trace start).",
  }),
} satisfies ToolShape & {tool: string}
