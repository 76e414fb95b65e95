import {resolve} from 'node:path'
import {Server} from '@modelcontextprotocol/sdk/server/index.js'
import type {RequestHandlerExtra} from '@modelcontextprotocol/sdk/shared/protocol.js'
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js'
import type {AnyCommand} from '../commands/types.js'
import {UsageError} from '../errors.js'
import type {ErrorObject} from '../output/outcome.js'
import {printable} from '../output/printable.js'
import {RUN_TOOL} from '../run/tool.js'
import {isJsonObject} from '../shape.js'
import {readTrace} from '../trace/read-trace.js'
import {traceSummary} from '../trace/summary.js'
import {TRACE_SUMMARY_TOOL} from '../trace/tool.js'
import {VERBS, verbForTool} from '../verbs/index.js'
import {inputFromArguments} from '../verbs/input.js'
import type {VerbContext} from '../verbs/types.js'
import {CallQueue} from './call-queue.js'
import type {ToolResult} from './call-tool.js'
import {callVerb, errorResult, textResult} from './call-tool.js'
import type {Catalogue} from './catalogues.js'
import {instructionsFor} from './instructions.js'
import {LineTransport} from './line-transport.js'
import type {McpTool} from './schema.js'
import {toolFor} from './schema.js'
import {runSessionTool, sessionTools, type ServerFlags, type SessionTool} from './session-tools.js'

export interface McpOptions {
  name: string
  version: string
  context: VerbContext
  /** Runs tapir_run's step lines as `tapir:run` does, on the call's context (its cancellation, its
   *  MCP words); answers its text and, when a step failed, the run's error object. */
  runSteps(lines: string[], keepGoing: boolean, context: VerbContext): Promise<{text: string; error?: ErrorObject}>
  log(line: string): void
  /** How long to keep answering after stdin closed. */
  drainMs: number
  /** Which tools to serve: tapir_* (the default), or Dusk 0.0.1's dusk_*. */
  catalogue?: Catalogue
  /** Every command: those with MCP facts are served as the session tools (start, stop, ...). */
  commands: readonly AnyCommand[]
  /** The server's own --state and --timeout, which the commands it runs take too. */
  server: ServerFlags
  /** Told of each answered call, before the next one runs (the trace appends it). */
  onCall?(call: AnsweredCall, context: VerbContext): Promise<void>
  /** The trace tapir_trace_summary reads when no file is named. */
  traceFile?(): string | undefined
}

/** A call the server answered, as a trace records it. */
export interface AnsweredCall {
  name: string
  args: Record<string, unknown> | undefined
  result: ToolResult
  startedAt: Date
  durationMs: number
  /** Whether the tool only reads (no screenshot after it). */
  reads: boolean
}

/** What a server serves: its tools, and how to run one call of them. */
interface Served {
  tools: McpTool[]
  /** The call's answer, or undefined for a tool this server lacks. */
  call(name: string, args: Record<string, unknown> | undefined, context: VerbContext, options: McpOptions): Promise<ToolResult> | undefined
  /** Whether a call of this tool only reads (a cancelled read need not hold the app). */
  reads(name: string): boolean
}

const INVALID_PARAMS = ErrorCode.InvalidParams

/** Every tool: one per catalogue verb with an MCP name, tapir_run, and the session tools. */
export function listTools(commands: readonly AnyCommand[]): McpTool[] {
  const tools = [
    ...VERBS.flatMap((verb) => (verb.tool ? [toolFor({...verb, tool: verb.tool})] : [])),
    toolFor(RUN_TOOL),
    toolFor(TRACE_SUMMARY_TOOL),
    ...sessionTools(commands).map(toolFor),
  ]
  return tools.sort((a, b) => a.name.localeCompare(b.name))
}

function tapirServed(commands: readonly AnyCommand[]): Served {
  const sessionTool = (name: string) => sessionTools(commands).find((tool) => tool.tool === name)
  return {
    tools: listTools(commands),
    call: (name, args, context, options) => {
      if (name === RUN_TOOL.tool) return callRun(args, context, options)
      if (name === TRACE_SUMMARY_TOOL.tool) return callTraceSummary(args, context, options)
      const session = sessionTool(name)
      if (session) return callSession(session, args, context, options)
      const verb = verbForTool(name)
      return verb ? callVerb(verb, args, context) : undefined
    },
    reads: (name) => name === TRACE_SUMMARY_TOOL.tool || (verbForTool(name) ?? sessionTool(name))?.kind === 'read',
  }
}

/** The summary of the trace named, or of this server's own (else the session's). */
async function callTraceSummary(args: Record<string, unknown> | undefined, context: VerbContext, options: McpOptions): Promise<ToolResult> {
  try {
    const input = inputFromArguments(TRACE_SUMMARY_TOOL, args)
    const file = typeof input.file === 'string' ? resolve(context.cwd, input.file) : options.traceFile?.()
    if (file === undefined)
      throw new UsageError('No trace to summarize: name its file, or start this server with --trace=<dir> (or tapir trace start <file>).')
    return textResult(traceSummary(readTrace(file)))
  } catch (error) {
    return errorResult(error)
  }
}

/** Runs a session tool through its CLI command: the command's JSON, or its error in MCP's words. */
async function callSession(
  tool: SessionTool,
  args: Record<string, unknown> | undefined,
  context: VerbContext,
  options: McpOptions,
): Promise<ToolResult> {
  try {
    const world = {version: options.version, env: process.env, commands: options.commands}
    const outcome = await runSessionTool(tool, args, options.server, world, context)
    if (outcome.exitCode === 0) return textResult(outcome.stdout)
    const message = outcome.error?.error.message
    return typeof message === 'string' ? textResult(`${message}\n${JSON.stringify(outcome.error)}`, true) : textResult(outcome.stdout, true)
  } catch (error) {
    return errorResult(error)
  }
}

/** The dusk_* tools, loaded only by a server that serves them. */
async function duskServed(): Promise<Served> {
  const [{listDuskTools, duskTool}, {callDuskTool}] = await Promise.all([import('./dusk-catalogue.js'), import('./call-dusk-tool.js')])
  return {
    tools: listDuskTools(),
    call: (name, args, context) => {
      const tool = duskTool(name)
      return tool ? callDuskTool(tool, args, context) : undefined
    },
    reads: (name) => duskTool(name)?.kind === 'read',
  }
}

async function callRun(args: Record<string, unknown> | undefined, context: VerbContext, options: McpOptions): Promise<ToolResult> {
  try {
    const input = inputFromArguments(RUN_TOOL, args)
    const steps = input.steps
    if (!Array.isArray(steps)) throw new UsageError('Missing required parameter "steps"')
    const {text, error} = await options.runSteps(steps, input.continue === true, context)
    return error ? textResult(`${text}\n${JSON.stringify(error)}`, true) : textResult(text)
  } catch (error) {
    return errorResult(error)
  }
}

/** How long a signalled server waits for its running calls to end what they started. */
const SHUTDOWN_MS = 10_000

/** The MCP server over stdio. Nothing but protocol reaches stdout; logs go to stderr. */
export async function serveMcp(options: McpOptions): Promise<void> {
  const served = options.catalogue === 'dusk' ? await duskServed() : tapirServed(options.commands)
  const server = new Server(
    {name: options.name, version: options.version},
    {capabilities: {tools: {}}, instructions: instructionsFor(options.catalogue ?? 'tapir')},
  )
  server.setRequestHandler(ListToolsRequestSchema, async () => ({tools: served.tools}))
  const queue = new CallQueue()
  const names = new Set(served.tools.map((tool) => tool.name))
  // A signal to the server cancels the calls still running (a tapir_start ends what it started)
  // and waits for them before the process exits.
  const shutdown = new AbortController()
  const inFlight = new Set<Promise<unknown>>()
  // MCP 2025-11-25 (server/tools, "Error Handling"): an unknown tool is a protocol error, -32602;
  // bad arguments are a tool execution error (isError), which a model can correct.
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    if (!names.has(request.params.name))
      throw new McpError(INVALID_PARAMS, `Unknown tool: ${request.params.name}. tools/list names the tools this server has.`)
    return queue.run(async () => {
      const {name, arguments: args} = request.params
      const started = Date.now()
      if (extra.signal.aborted || shutdown.signal.aborted)
        return {answer: errorResult(new UsageError('Cancelled.')), released: Promise.resolve()}
      const context = callContext(options.context, extra, shutdown.signal)
      const running = served.call(name, args, context, options) ?? Promise.reject(new Error(`${name} has no way to run`))
      const settled = running.then(
        () => undefined,
        () => undefined,
      )
      inFlight.add(settled)
      void settled.then(() => inFlight.delete(settled))
      const answer = await Promise.race([running, whenCancelled(extra.signal)])
      if (extra.signal.aborted) {
        options.log(`${name} cancelled after ${Date.now() - started} ms`)
        // A read changes nothing, so the next call need not wait for the app's answer to it;
        // anything else holds the app until it has stopped (perf_run at its next repeat).
        return {answer, released: served.reads(name) ? Promise.resolve() : running}
      }
      const result = withinSizeLimit(name, answer)
      const durationMs = Date.now() - started
      options.log(`${name} ${result.isError ? 'failed' : 'ok'} in ${durationMs} ms`)
      await options.onCall?.({name, args, result, startedAt: new Date(started), durationMs, reads: served.reads(name)}, context)
      return {answer: result, released: Promise.resolve()}
    })
  })
  process.stdout.on('error', (error) => {
    options.log(`stopped: stdout failed, the client went away (${error.message})`)
    process.exit(0)
  })
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.once(signal, () => {
      shutdown.abort()
      const waiting = [...inFlight]
      if (waiting.length > 0) options.log(`${signal}: ending ${waiting.length} running call(s) first`)
      void Promise.race([Promise.all(waiting), new Promise((resolve) => setTimeout(resolve, SHUTDOWN_MS).unref())]).then(() => {
        options.log(`stopped: ${signal}`)
        process.exit(0)
      })
    })
  }
  server.onerror = (error) => options.log(`error: ${error.message}`)
  const transport = new LineTransport()
  await server.connect(transport)
  refuseInvalidParams(transport, [CallToolRequestSchema, ListToolsRequestSchema])
  refuseUnknownArguments(transport, served.tools)
  const answered = countAnswers(transport)
  options.log(`tapir MCP server ready: ${served.tools.length} ${options.catalogue === 'dusk' ? 'dusk_* ' : ''}tools on stdio`)
  const reason = await new Promise<string>((resolve) => {
    server.onclose = () => resolve('the connection closed')
    process.stdin.on('end', () => resolve('stdin ended (the client hung up)'))
    process.stdin.on('error', (error) => resolve(`stdin failed (${error.message})`))
  })
  // A client may write its requests and hang up at once: answer them before leaving (an app
  // that never answers is given up on with the per-call timeout).
  const drained = await Promise.race([
    answered().then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), options.drainMs).unref()),
  ])
  options.log(`stopped: ${reason}${drained ? '' : `; gave up on unanswered calls after ${options.drainMs} ms`}`)
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>

/** The session's context for one call: its cancellation, and its progress lines sent as
 *  notifications/progress when the caller asked for them with a progressToken. */
function callContext(context: VerbContext, extra: Extra, shutdown: AbortSignal): VerbContext {
  const token = extra._meta?.progressToken
  let sent = 0
  const progress =
    token === undefined
      ? undefined
      : (message: string) =>
          void extra
            .sendNotification({
              method: 'notifications/progress',
              // As the CLI prints a progress line: flutter's log lines hold the VM Service URI.
              params: {progressToken: token, progress: ++sent, message: printable(message, true)},
            })
            .catch(() => undefined)
  const own: Partial<VerbContext> = {cancelled: AbortSignal.any([extra.signal, shutdown]), origin: 'mcp', ...(progress ? {progress} : {})}
  // Everything else is the session's own, run on the session's context itself (its one connection).
  return new Proxy(context, {
    get(target, key, receiver) {
      if (key in own) return own[key as keyof VerbContext]
      const value: unknown = Reflect.get(target, key, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** Settles once the call is cancelled; nothing is sent for a cancelled call. */
function whenCancelled(signal: AbortSignal): Promise<ToolResult> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(errorResult(new UsageError('Cancelled.'))), {once: true}))
}

/** Results larger than this are refused: the stdio client reads at most 10 MiB a line. */
export const MAX_RESULT_BYTES = 6 * 1024 * 1024

const TAPIR_NARROWER = 'grep, within or interactiveOnly on tapir_snap, roles or a lower limit on tapir_observe, a ref on tapir_screenshot'
const DUSK_NARROWER = 'a lower depth on dusk_snap, roles or a lower limit on dusk_observe, JPEG on dusk_screenshot'

/** The result, or an error naming its size and how to ask for less when it would not fit a line. */
function withinSizeLimit(tool: string, result: ToolResult): ToolResult {
  const bytes = Buffer.byteLength(JSON.stringify(result))
  if (bytes <= MAX_RESULT_BYTES) return result
  const mb = (size: number) => `${(size / 1024 / 1024).toFixed(1)} MiB`
  return errorResult(
    new UsageError(
      `The ${tool} result is ${mb(bytes)}, over the ${mb(MAX_RESULT_BYTES)} an MCP result may take here (a stdio client reads at most 10 MiB a message). Ask for less: ${tool.startsWith('dusk_') ? DUSK_NARROWER : TAPIR_NARROWER}.`,
    ),
  )
}

/** What the server does with a message its transport receives: there once it is connected. */
function receiverOf(transport: Transport): NonNullable<Transport['onmessage']> {
  const receive = transport.onmessage
  if (!receive) throw new Error('The MCP server is not connected to its transport.')
  return receive
}

/** Answers a request to one of these methods whose params do not fit its schema with -32602
 *  Invalid params (the SDK checks them before its own check and would answer -32603). */
function refuseInvalidParams(transport: Transport, schemas: Array<typeof CallToolRequestSchema | typeof ListToolsRequestSchema>): void {
  const byMethod = new Map<string, (typeof schemas)[number]>(schemas.map((schema) => [schema.shape.method.value, schema]))
  const receive = receiverOf(transport)
  transport.onmessage = (message) => {
    if ('method' in message && 'id' in message) {
      const parsed = byMethod.get(message.method)?.safeParse(message)
      if (parsed && !parsed.success) {
        const problem = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'params'}: ${issue.message}`).join('; ')
        void transport.send({
          jsonrpc: '2.0',
          id: message.id,
          error: {code: INVALID_PARAMS, message: `Invalid params for ${message.method}: ${problem}`},
        })
        return
      }
    }
    receive(message)
  }
}

/** Answers a tools/call whose arguments hold a key its tool's schema does not name with an error
 *  result naming the fix (MCP 2025-11-25: input validation is a tool execution error, isError).
 *  Checked on the message as it was parsed, where `__proto__` is still an own key: the SDK's own
 *  parse would drop it without a word. */
function refuseUnknownArguments(transport: Transport, tools: McpTool[]): void {
  const accepted = new Map(tools.map((tool) => [tool.name, Object.keys(tool.inputSchema.properties as object)]))
  const receive = receiverOf(transport)
  transport.onmessage = (message) => {
    if ('method' in message && 'id' in message && message.method === 'tools/call') {
      const params = isJsonObject(message.params) ? message.params : {}
      const {name, arguments: args} = params
      const names = typeof name === 'string' ? accepted.get(name) : undefined
      const unknown = names && isJsonObject(args) ? Object.keys(args).filter((key) => !names.includes(key)) : []
      if (typeof name === 'string' && names && unknown.length > 0) {
        const listed =
          unknown
            .slice(0, 5)
            .map((key) => JSON.stringify(key.slice(0, 80)))
            .join(', ') + (unknown.length > 5 ? ` and ${unknown.length - 5} more` : '')
        const refusal = new UsageError(`${name} takes no argument ${listed}; it takes ${names.join(', ') || 'no arguments'}.`)
        void transport.send({jsonrpc: '2.0', id: message.id, result: errorResult(refusal)})
        return
      }
    }
    receive(message)
  }
}

/** Tracks the requests not yet answered (a cancelled one needs no answer), so the server can
 *  wait until every request is answered. A cancellation of a request that is not in progress
 *  (answered already, or not yet received: sent ahead of it in the same write) is dropped, as
 *  the MCP spec lets a receiver ignore it: the SDK runs notification handlers a turn later, so
 *  passed on it would cancel the request that follows it, which would then never be answered. */
function countAnswers(transport: Transport): () => Promise<void> {
  const open = new Set<string | number>()
  let settled: (() => void) | undefined
  const check = () => open.size === 0 && settled?.()
  const receive = receiverOf(transport)
  transport.onmessage = (message) => {
    if ('id' in message && 'method' in message) open.add(message.id)
    const cancelled = CancelledNotificationSchema.safeParse(message)
    if (cancelled.success && cancelled.data.params.requestId !== undefined) {
      if (!open.delete(cancelled.data.params.requestId)) return
      check()
    }
    receive(message)
  }
  const send = transport.send.bind(transport)
  transport.send = async (message) => {
    await send(message)
    if ('id' in message && !('method' in message) && message.id !== undefined) {
      open.delete(message.id)
      check()
    }
  }
  return () => (open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (settled = resolve)))
}
