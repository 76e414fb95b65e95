import {TapirError} from '../errors.js'
import {VmServiceClient} from './client.js'
import {extensionFailure} from './extension-error.js'
import {RpcError} from './rpc-error.js'
import {EXIT} from '../output/exit-codes.js'

type Isolate = {id: string; extensionRPCs?: string[]; rootLib?: {id: string}; type: string}
type Result = Record<string, unknown>

const EXTENSION_PREFIX = 'ext.tapir.'
/** Time on top of a verb's own wait for the app to settle and answer. */
const WAIT_MARGIN_MS = 5000

function isCollected(value: unknown): boolean {
  return (value as {type?: string} | null)?.type === 'Sentinel'
}

/** The running app behind a VM Service: finds the isolate tapir lives in and calls into it. */
export class AppConnection {
  private isolate: Isolate | undefined
  /** Services other clients registered (`flutter run`'s hotRestart, ...): name → method. */
  private services: Map<string, string> | undefined

  constructor(readonly client: VmServiceClient) {}

  static async open(uri: string, timeoutMs: number): Promise<AppConnection> {
    return new AppConnection(await VmServiceClient.connect(uri, {timeoutMs}))
  }

  /** Calls `ext.tapir.<verb>`; every param goes as a string, as the VM hands them to Dart.
   *  A verb that waits inside the app (wait_for, tap --until) passes how long it may wait, so
   *  the per-call timeout never cuts its own wait short. */
  async callExtension(verb: string, params: Record<string, string>, waitsMs = 0): Promise<Result> {
    const method = EXTENSION_PREFIX + verb
    const timeoutMs = waitsMs > 0 ? Math.max(this.client.timeoutMs, waitsMs + WAIT_MARGIN_MS) : this.client.timeoutMs
    return this.withIsolate(method, (isolateId) => this.client.call<Result>(method, {...params, isolateId}, timeoutMs))
  }

  /** The VM `evaluate` RPC in the app's root library. */
  async evaluate(expression: string): Promise<Result> {
    return this.withIsolate('evaluate', (isolateId) => {
      const targetId = this.isolate?.rootLib?.id
      if (!targetId) throw new TapirError('The app isolate has no root library to evaluate in.', EXIT.appError)
      return this.client.call<Result>('evaluate', {isolateId, targetId, expression})
    })
  }

  /** Whether an isolate of the app has registered tapir's extensions. */
  async hasTapir(): Promise<boolean> {
    const isolate = this.isolate ?? (await this.resolveIsolate())
    return Boolean(isolate.extensionRPCs?.some((name) => name.startsWith(EXTENSION_PREFIX)))
  }

  /** Hot restart through the `hotRestart` service `flutter run` registered (its `sN.` name is
   *  learned from the Service stream, never assumed). The isolate is replaced. */
  async hotRestart(): Promise<void> {
    const method = (await this.registeredServices()).get('hotRestart')
    if (!method) {
      throw new TapirError('The app offers no hotRestart service: only an app run by `flutter run` (or `tapir start`) can be hot restarted. Start it that way, or drop hot_restart from the setup.', EXIT.failed)
    }
    try {
      await this.client.call(method, {})
    } catch (error) {
      if (error instanceof RpcError) throw new TapirError(`Hot restart failed: ${error.message}`, EXIT.appError)
      throw error
    }
    this.isolate = undefined
  }

  private async registeredServices(): Promise<Map<string, string>> {
    if (this.services) return this.services
    const services = new Map<string, string>()
    await this.client.listen('Service', (event) => {
      if (event.kind === 'ServiceRegistered' && typeof event.service === 'string' && typeof event.method === 'string') services.set(event.service, event.method)
      if (event.kind === 'ServiceUnregistered' && typeof event.service === 'string') services.delete(event.service)
    })
    return (this.services = services)
  }

  close(): void {
    this.client.close()
  }

  /** Runs a call against the tapir isolate; after a hot restart (a Collected sentinel) it
   *  finds the new isolate and tries once more. */
  private async withIsolate(method: string, call: (isolateId: string) => Promise<Result>): Promise<Result> {
    for (let attempt = 0; ; attempt++) {
      const isolate = this.isolate ?? (await this.resolveIsolate())
      let result: Result
      try {
        result = await call(isolate.id)
      } catch (error) {
        if (error instanceof RpcError) throw method.startsWith(EXTENSION_PREFIX) ? extensionFailure(method, error) : error
        throw error
      }
      if (!isCollected(result)) return result
      this.isolate = undefined
      if (attempt > 0) throw new TapirError(`The app's isolate went away during ${method} (hot restart in progress?). Try again.`, EXIT.appError)
    }
  }

  private async resolveIsolate(): Promise<Isolate> {
    const vm = await this.client.call<{isolates?: Array<{id: string}>}>('getVM')
    const isolates: Isolate[] = []
    for (const ref of vm.isolates ?? []) {
      const isolate = await this.client.call<Isolate>('getIsolate', {isolateId: ref.id})
      if (isCollected(isolate)) continue
      if (isolate.extensionRPCs?.some((name) => name.startsWith(EXTENSION_PREFIX))) return (this.isolate = isolate)
      isolates.push(isolate)
    }
    // No isolate registered tapir: call the first anyway so the VM's own -32601 explains it.
    if (isolates[0]) return (this.isolate = isolates[0])
    throw new TapirError('The VM Service reports no running isolate; is the Flutter app fully booted?', EXIT.appError)
  }
}
