import {redactToken} from '../output/redact-token.js'
import {AppConnection} from '../vm/app-connection.js'
import {Deadline} from '../vm/deadline.js'

export interface Probe {
  answering: boolean
  /** Whether an isolate has registered ext.tapir.* extensions. */
  tapir?: boolean
  vmVersion?: string
  error?: string
}

/** Asks the VM Service whether it is there and whether tapir lives in it. */
export async function probeApp(wsUri: string, timeoutMs: number): Promise<Probe> {
  let app: AppConnection | undefined
  const deadline = new Deadline(timeoutMs)
  try {
    app = await AppConnection.open(wsUri, timeoutMs)
    const version = await app.client.call('getVersion', {}, deadline)
    const vmVersion =
      typeof version.major === 'number' && typeof version.minor === 'number' ? `${version.major}.${version.minor}` : undefined
    return {answering: true, tapir: await app.hasTapir(deadline).catch(() => false), ...(vmVersion ? {vmVersion} : {})}
  } catch (error) {
    return {answering: false, error: redactToken(error instanceof Error ? error.message : String(error))}
  } finally {
    app?.close()
  }
}
