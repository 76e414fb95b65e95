import {isJsonObject} from '../shape.js'

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
    const details = isJsonObject(this.data) ? this.data.details : undefined
    return typeof details === 'string' ? details : undefined
  }
}
