import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js'
import {JSONRPCMessageSchema, type JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js'
import {messageOf} from '../errors.js'
import {isJsonObject} from '../shape.js'

/** The longest request line read: the stdio client's own line limit (10 MiB). */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024
/** How much of an oversized line is kept to find its id: its start and its end. */
const EDGE_BYTES = 512

const PARSE_ERROR = -32700
const INVALID_REQUEST = -32600

type Id = string | number | null
type Oversized = {head: Buffer; tail: Buffer; bytes: number}

/**
 * MCP over stdio, one JSON-RPC message per line, that survives bad input: a line that is not
 * JSON, not JSON-RPC or longer than MAX_REQUEST_BYTES is answered with a JSON-RPC error (and
 * an oversized one is never held in memory whole), and the next line is read as usual.
 */
export class LineTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void

  private pending: Buffer[] = []
  private pendingBytes = 0
  private oversized: Oversized | undefined

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.receive)
    this.input.on('error', this.fail)
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.output.write(JSON.stringify(message) + '\n')) return
    await new Promise<void>((resolve) => this.output.once('drain', resolve))
  }

  async close(): Promise<void> {
    this.input.off('data', this.receive)
    this.input.off('error', this.fail)
    this.pending = []
    this.onclose?.()
  }

  private readonly fail = (error: Error): void => this.onerror?.(error)

  private readonly receive = (chunk: Buffer | string): void => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    let start = 0
    for (;;) {
      const newline = data.indexOf(10, start)
      this.collect(data.subarray(start, newline === -1 ? data.length : newline))
      if (newline === -1) return
      this.endLine()
      start = newline + 1
    }
  }

  private collect(piece: Buffer): void {
    if (piece.length === 0) return
    const oversized = this.oversized
    if (oversized) {
      oversized.tail = lastBytes(Buffer.concat([oversized.tail, piece]))
      oversized.bytes += piece.length
      return
    }
    if (this.pendingBytes + piece.length <= MAX_REQUEST_BYTES) {
      this.pending.push(piece)
      this.pendingBytes += piece.length
      return
    }
    const seen = Buffer.concat([...this.pending, piece])
    this.oversized = {head: seen.subarray(0, EDGE_BYTES), tail: lastBytes(seen), bytes: seen.length}
    this.pending = []
    this.pendingBytes = 0
  }

  private endLine(): void {
    const oversized = this.oversized
    const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '')
    this.pending = []
    this.pendingBytes = 0
    this.oversized = undefined
    if (oversized) {
      const megabytes = (oversized.bytes / 1024 / 1024).toFixed(1)
      return this.refuse(
        idOfOversized(oversized),
        INVALID_REQUEST,
        `Request too large: ${megabytes} MiB on one line, over the ${MAX_REQUEST_BYTES / 1024 / 1024} MiB a request may take. Send less (shorter text), in several calls.`,
      )
    }
    if (line.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      return this.refuse(null, PARSE_ERROR, `Parse error: the line is not JSON (${messageOf(error)}).`)
    }
    const message = JSONRPCMessageSchema.safeParse(value)
    if (!message.success)
      return this.refuse(idOf(value), INVALID_REQUEST, 'Invalid Request: the line is not a JSON-RPC 2.0 request, notification or response.')
    this.onmessage?.(message.data)
  }

  private refuse(id: Id, code: number, message: string): void {
    this.onerror?.(new Error(message))
    // Written directly: the SDK's message type has no place for the null id JSON-RPC asks for here.
    this.output.write(JSON.stringify({jsonrpc: '2.0', id, error: {code, message}}) + '\n')
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= EDGE_BYTES ? buffer : Buffer.from(buffer.subarray(buffer.length - EDGE_BYTES))
}

function idOf(value: unknown): Id {
  const id = isJsonObject(value) ? value.id : undefined
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null
}

const ID_VALUE = String.raw`(-?\d+|"(?:[^"\\]|\\.){0,200}")`
/** `"id": N` as the first member (`{"jsonrpc":"2.0","id":N,...`) or as the last one (`...,"id":N}`), as clients write it. */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID_VALUE}`)
const ID_LAST = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID_VALUE}\s*\}\s*\r?$`)

/** The id of a line too long to parse, read from its edges, so the client's call fails at once
 *  instead of waiting for an answer that would never come. */
function idOfOversized({head, tail}: Oversized): Id {
  const match = ID_FIRST.exec(head.toString('utf8')) ?? ID_LAST.exec(tail.toString('utf8'))
  const idText = match?.[1]
  if (idText === undefined) return null
  try {
    const id: unknown = JSON.parse(idText)
    return typeof id === 'string' || typeof id === 'number' ? id : null
  } catch {
    return null
  }
}
