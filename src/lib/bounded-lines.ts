/** One line of a byte stream, without its newline; `cut` when it was longer than the bound and
 *  only its start is kept. */
export interface BoundedLine {
  text: string
  cut: boolean
}

/** Splits bytes into lines without ever holding more than `maxBytes` of one line: the rest of an
 *  overlong line is dropped up to its newline, so a writer that never ends its line cannot fill
 *  the memory. A character split across chunks stays whole. */
export class BoundedLines {
  private pending: Buffer[] = []
  private pendingBytes = 0
  private cut = false

  constructor(private readonly maxBytes: number) {}

  /** The lines a chunk completes. */
  push(chunk: Buffer): BoundedLine[] {
    const lines: BoundedLine[] = []
    let start = 0
    for (;;) {
      const newline = chunk.indexOf(10, start)
      this.keep(chunk.subarray(start, newline === -1 ? chunk.length : newline))
      if (newline === -1) return lines
      lines.push(this.take())
      start = newline + 1
    }
  }

  /** The last line, when the stream ended without a newline. */
  end(): BoundedLine | undefined {
    return this.pendingBytes > 0 || this.cut ? this.take() : undefined
  }

  private keep(piece: Buffer): void {
    if (this.cut || piece.length === 0) return
    const room = this.maxBytes - this.pendingBytes
    if (piece.length > room) {
      this.cut = true
      piece = piece.subarray(0, room)
    }
    this.pending.push(Buffer.from(piece))
    this.pendingBytes += piece.length
  }

  private take(): BoundedLine {
    const line = {text: Buffer.concat(this.pending).toString('utf8').replace(/\r$/, ''), cut: this.cut}
    this.pending = []
    this.pendingBytes = 0
    this.cut = false
    return line
  }
}

/** Calls `onLine` for every line of a stream as it arrives (and for an unfinished last one).
 *  Unlike node:readline it adds no listener for the stream's errors: its owner handles those. */
export function readBoundedLines(stream: NodeJS.ReadableStream, maxBytes: number, onLine: (line: BoundedLine) => void): void {
  const lines = new BoundedLines(maxBytes)
  stream.on('data', (chunk: Buffer | string) => {
    for (const line of lines.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) onLine(line)
  })
  stream.on('end', () => {
    const last = lines.end()
    if (last) onLine(last)
  })
}
