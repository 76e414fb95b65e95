import {Server} from '@modelcontextprotocol/sdk/server/index.js'
import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js'
import {CallToolRequestSchema, ListToolsRequestSchema} from '@modelcontextprotocol/sdk/types.js'
import {UsageError} from '../errors.js'
import {RUN_TOOL} from '../run/tool.js'
import {VERBS, verbForTool} from '../verbs/index.js'
import {inputFromArguments} from '../verbs/input.js'
import type {VerbContext} from '../verbs/types.js'
import type {ToolResult} from './call-tool.js'
import {callVerb, errorResult, textResult} from './call-tool.js'
import type {McpTool} from './schema.js'
import {toolFor} from './schema.js'

export interface McpOptions {
  name: string
  version: string
  context: VerbContext
  /** Runs tapir_run's step lines as `tapir:run` does; answers its text and whether a step failed. */
  runSteps(lines: string[], keepGoing: boolean): Promise<{text: string; failed: boolean}>
  log(line: string): void
  /** How long to keep answering after stdin closed. */
  drainMs: number
}

/** Every tool: one per catalogue verb with an MCP name, plus tapir_run. */
export function listTools(): McpTool[] {
  const tools = [...VERBS.flatMap((verb) => (verb.tool ? [toolFor({...verb, tool: verb.tool})] : [])), toolFor(RUN_TOOL)]
  return tools.sort((a, b) => a.name.localeCompare(b.name))
}

async function callRun(args: Record<string, unknown> | undefined, options: McpOptions): Promise<ToolResult> {
  try {
    const input = inputFromArguments(RUN_TOOL, args)
    const steps = input.steps
    if (!Array.isArray(steps)) throw new UsageError('Missing required parameter "steps"')
    const {text, failed} = await options.runSteps(steps, input.continue === true)
    return textResult(text, failed)
  } catch (error) {
    return errorResult(error)
  }
}

/** The MCP server over stdio. Nothing but protocol reaches stdout; logs go to stderr. */
export async function serveMcp(options: McpOptions): Promise<void> {
  const server = new Server({name: options.name, version: options.version}, {capabilities: {tools: {}}})
  server.setRequestHandler(ListToolsRequestSchema, async () => ({tools: listTools()}))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const {name, arguments: args} = request.params
    const started = Date.now()
    const verb = verbForTool(name)
    const result = name === RUN_TOOL.tool ? await callRun(args, options) : verb ? await callVerb(verb, args, options.context) : errorResult(new Error(`Unknown tool ${name}`))
    options.log(`${name} ${result.isError ? 'failed' : 'ok'} in ${Date.now() - started} ms`)
    return result
  })
  process.stdout.on('error', () => process.exit(0)) // the client went away (EPIPE)
  const transport = new StdioServerTransport()
  await server.connect(transport)
  const answered = countAnswers(transport)
  options.log(`tapir MCP server ready: ${listTools().length} tools on stdio`)
  await new Promise<void>((resolve) => {
    server.onclose = () => resolve()
    process.stdin.on('end', () => resolve())
  })
  // A client may write its requests and hang up at once: answer them before leaving (an app
  // that never answers is given up on with the per-call timeout).
  await Promise.race([answered(), new Promise((resolve) => setTimeout(resolve, options.drainMs).unref())])
}

/** Tracks the requests not yet answered (a cancelled one needs no answer), so the server can
 *  wait until every request is answered. */
function countAnswers(transport: StdioServerTransport): () => Promise<void> {
  const open = new Set<string | number>()
  let settled: (() => void) | undefined
  const check = () => open.size === 0 && settled?.()
  const receive = transport.onmessage!
  transport.onmessage = (message) => {
    if ('id' in message && 'method' in message) open.add(message.id)
    if ('method' in message && message.method === 'notifications/cancelled') {
      open.delete((message.params as {requestId: string | number}).requestId)
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
