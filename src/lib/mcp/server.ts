import {Server} from '@modelcontextprotocol/sdk/server/index.js'
import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js'
import {CallToolRequestSchema, ListToolsRequestSchema} from '@modelcontextprotocol/sdk/types.js'
import {UsageError} from '../errors.js'
import {RUN_TOOL} from '../run/tool.js'
import {VERBS, verbForTool} from '../verbs/index.js'
import {inputFromArguments} from '../verbs/input.js'
import type {Verb, VerbContext} from '../verbs/types.js'
import type {ErrorObject} from '../output/outcome.js'
import type {ToolResult} from './call-tool.js'
import {callVerb, errorResult, textResult} from './call-tool.js'
import type {McpTool} from './schema.js'
import {inputSchema, toolFor} from './schema.js'

export interface McpOptions {
  name: string
  version: string
  context: VerbContext
  /** Runs tapir_run's step lines as `tapir:run` does; answers its text and, when a step failed, the run's error object. */
  runSteps(lines: string[], keepGoing: boolean): Promise<{text: string; error?: ErrorObject}>
  log(line: string): void
  /** How long to keep answering after stdin closed. */
  drainMs: number
}

const RUN_VERB_SHAPE = {params: RUN_TOOL.params} as unknown as Verb

/** Every tool: one per catalogue verb with an MCP name, plus tapir_run. */
export function listTools(): McpTool[] {
  const runTool: McpTool = {
    name: RUN_TOOL.name,
    description: RUN_TOOL.summary,
    inputSchema: inputSchema(RUN_TOOL.params),
    annotations: {readOnlyHint: false, destructiveHint: true, openWorldHint: false},
  }
  return [...VERBS.filter((verb) => verb.tool).map(toolFor), runTool].sort((a, b) => a.name.localeCompare(b.name))
}

async function callRun(args: Record<string, unknown> | undefined, options: McpOptions): Promise<ToolResult> {
  try {
    const input = inputFromArguments(RUN_VERB_SHAPE, args)
    const {text, error} = await options.runSteps(input.steps as string[], input.continue === true)
    return error ? textResult(`${text}\n${JSON.stringify(error)}`, true) : textResult(text)
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
    const result = name === RUN_TOOL.name ? await callRun(args, options) : verb ? await callVerb(verb, args, options.context) : errorResult(new UsageError(`Unknown tool: ${name}. tools/list names the tools this server has.`))
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
