/** A JSON-RPC error object as the VM Service (or an extension) sent it. */
export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly rpcMessage: string,
    readonly data: unknown,
  ) {
    super(`${method}: ${rpcMessage} (${code})`)
  }

  /** `data.details`, the text an extension put in `ServiceExtensionResponse.error`. */
  get details(): string | undefined {
    const details = (this.data as {details?: unknown} | undefined)?.details
    return typeof details === 'string' ? details : undefined
  }
}
