import type {StepDone} from '../trace/tracer.js'
import type {AnsweredCall} from './server.js'

/** Typed text that is never written into a trace: whether its field is obscured cannot be seen
 *  without asking the app, so none of it is. */
const TYPED_TEXT = /(^|_)(fill|type)$/

/** An answered MCP call as a trace's step: the tool and its arguments (typed text as ***, and a
 *  tapir_run step's --text too), the answer's text (an image as its type), its exit code. */
export function traceCall(call: AnsweredCall): StepDone {
  const args = {...call.args}
  if (TYPED_TEXT.test(call.name) && typeof args.text === 'string') args.text = '***'
  if (Array.isArray(args.steps)) args.steps = args.steps.map((step) => (typeof step === 'string' ? maskStepText(step) : step))
  const output = call.result.content.map((part) => (part.type === 'text' ? part.text : `[${part.mimeType}]`)).join('\n')
  const exitCode = call.result.isError ? Number(/"exitCode":\s*(\d+)/.exec(output)?.[1] ?? 1) : 0
  return {
    via: 'mcp',
    call: `${call.name} ${JSON.stringify(args)}`,
    startedAt: call.startedAt,
    durationMs: call.durationMs,
    exitCode,
    output,
    acted: !call.reads,
  }
}

/** A tapir_run step whose verb types text, with that text written as ***. */
function maskStepText(step: string): string {
  return /^\s*(fill|type)\b/.test(step) ? step.replace(/--text(=|\s+)("[^"]*"|'[^']*'|\S+)/g, '--text$1***') : step
}
