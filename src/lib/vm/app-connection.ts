import {TapirError} from '../errors.js'
import {describeJson, isJsonObject, type JsonObject, type Shape} from '../shape.js'
import {VmServiceClient} from './client.js'
import type {Deadline} from './deadline.js'
import {extensionFailure} from './extension-error.js'
import {instanceRef, type InstanceRef} from './instance-ref.js'
import {checkAnswer, malformedAnswer} from './malformed.js'
import {ReloadRejected} from './reload-rejected.js'
import {RpcError} from './rpc-error.js'

type Isolate = {id: string; extensionRPCs: string[]; rootLibId?: string}
type Result = JsonObject

const EXTENSION_PREFIX = 'ext.tapir.'
const DUSK_PREFIX = 'ext.dusk.'

/** The in-app package an app runs: tapir, or its predecessor Dusk 0.0.1 (`ext.dusk.*`). */
export type AppPackage = 'tapir' | 'dusk'

function isCollected(value: Result): boolean {
  return value.type === 'Sentinel'
}

/** The isolate refs of a getVM answer; anything else in their place is a malformed answer. */
function isolateIds(vm: Result): string[] {
  if (vm.isolates === undefined) return []
  if (!Array.isArray(vm.isolates)) throw malformedAnswer('getVM', `its isolates are ${describeJson(vm.isolates)}, not a list`)
  return vm.isolates.map((ref: unknown) => {
    if (!isJsonObject(ref) || typeof ref.id !== 'string')
      throw malformedAnswer('getVM', `it lists an isolate without a string id: ${describeJson(ref)}`)
    return ref.id
  })
}

/** The fields tapir reads from a getIsolate answer, checked. */
function isolateOf(answer: Result, requestedId: string): Isolate {
  const where = `getIsolate(${requestedId})`
  if (typeof answer.id !== 'string') throw malformedAnswer(where, `its id is ${describeJson(answer.id)}, not a string`)
  const names = answer.extensionRPCs ?? []
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
    throw malformedAnswer(where, `its extensionRPCs are ${describeJson(names)}, not a list of method names`)
  }
  const rootLib = answer.rootLib
  if (rootLib === undefined) return {id: answer.id, extensionRPCs: names}
  if (!isJsonObject(rootLib) || typeof rootLib.id !== 'string') {
    throw malformedAnswer(where, `its rootLib is ${describeJson(rootLib)}, not a library reference with a string id`)
  }
  return {id: answer.id, extensionRPCs: names, rootLibId: rootLib.id}
}

const lists = (isolate: Isolate, prefix: string) => isolate.extensionRPCs.some((name) => name.startsWith(prefix))

/** Which package an isolate lists: tapir wins when both are there; none when neither is. */
export function packageOf(extensionRPCs: readonly string[]): AppPackage | undefined {
  const isolate = {id: '', extensionRPCs: [...extensionRPCs]}
  if (lists(isolate, EXTENSION_PREFIX)) return 'tapir'
  if (lists(isolate, DUSK_PREFIX)) return 'dusk'
  return undefined
}

/** A call tapir's wire would send to an app that runs Dusk 0.0.1: refused before it is sent. */
export class DuskAppRefusal extends TapirError {
  constructor(readonly method: string) {
    super(`${method} needs the tapir package, but the app runs Dusk 0.0.1 (ext.dusk.*), which has no such call.`, 'usage')
  }
}

/** The running app behind a VM Service: finds the isolate tapir lives in and calls into it.
 *  Every call of one verb shares that verb's deadline. */
export class AppConnection {
  private isolate: Isolate | undefined
  /** Services other clients registered (`flutter run`'s hotRestart, ...): name → method. */
  private services: Map<string, string> | undefined

  constructor(readonly client: VmServiceClient) {}

  static async open(uri: string, timeoutMs: number): Promise<AppConnection> {
    return new AppConnection(await VmServiceClient.connect(uri, {timeoutMs}))
  }

  /** Calls `ext.tapir.<verb>`; every param goes as a string, as the VM hands them to Dart. The
   *  answer is checked against `shape`, what the caller reads of it: a wrong one is a malformed
   *  answer naming the field. An app on Dusk 0.0.1 is never sent it (DuskAppRefusal, exit 1):
   *  a Dusk call goes through `callDusk` with 0.0.1's own params. */
  async callExtension<T>(verb: string, params: Record<string, string>, shape: Shape<T>, deadline: Deadline): Promise<T> {
    const method = EXTENSION_PREFIX + verb
    const answer = await this.withIsolate(method, deadline, (isolate) => {
      if (packageOf(isolate.extensionRPCs) === 'dusk') throw new DuskAppRefusal(method)
      return this.client.call(method, {...params, isolateId: isolate.id}, deadline)
    })
    return checkAnswer(method, shape, answer)
  }

  /** Calls `ext.dusk.<method>` of an app on Dusk 0.0.1 with 0.0.1's params, every one a string. */
  async callDusk<T>(name: string, params: Record<string, string>, shape: Shape<T>, deadline: Deadline): Promise<T> {
    const method = DUSK_PREFIX + name
    const answer = await this.withIsolate(method, deadline, (isolate) => {
      if (packageOf(isolate.extensionRPCs) !== 'dusk')
        throw new TapirError(`The app does not run Dusk 0.0.1: ${method} is not sent to it.`, 'usage')
      return this.client.call(method, {...params, isolateId: isolate.id}, deadline)
    })
    return checkAnswer(method, shape, answer)
  }

  /** The package the app runs, read from its isolate's extensionRPCs once per connection
   *  (again only after a hot restart replaced the isolate); undefined when it lists neither. */
  async appPackage(deadline: Deadline): Promise<AppPackage | undefined> {
    return packageOf((this.isolate ?? (await this.resolveIsolate(deadline.setup))).extensionRPCs)
  }

  /** The VM `evaluate` RPC in the app's root library: the value's reference, or the error. */
  async evaluate(expression: string, deadline: Deadline): Promise<InstanceRef> {
    const answer = await this.withIsolate('evaluate', deadline, (isolate) => {
      if (!isolate.rootLibId) throw new TapirError('The app isolate has no root library to evaluate in.', 'app')
      return this.client.call('evaluate', {isolateId: isolate.id, targetId: isolate.rootLibId, expression}, deadline)
    })
    return checkAnswer('evaluate', instanceRef, answer)
  }

  /** Whether the app's isolate registered `ext.tapir.<verb>`: read from the isolate tapir already
   *  found, so asking calls nothing in the app. */
  async registers(verb: string, deadline: Deadline): Promise<boolean> {
    return (this.isolate ?? (await this.resolveIsolate(deadline.setup))).extensionRPCs.includes(EXTENSION_PREFIX + verb)
  }

  /** Whether an isolate of the app has registered tapir's (or Dusk 0.0.1's) extensions. */
  async hasTapir(deadline: Deadline): Promise<boolean> {
    return (await this.appPackage(deadline)) !== undefined
  }

  /** Hot restart through the `hotRestart` service `flutter run` registered (its `sN.` name is
   *  learned from the Service stream, never assumed). The isolate is replaced. */
  async hotRestart(deadline?: Deadline): Promise<void> {
    await this.callToolService('hotRestart', 'Hot restart', {}, deadline)
    this.isolate = undefined
  }

  /** Hot reload through the `reloadSources` service `flutter run` registered: it recompiles and
   *  reassembles the app (the VM's own reloadSources would skip the compile step). */
  async reloadSources(deadline: Deadline): Promise<void> {
    const isolate = this.isolate ?? (await this.resolveIsolate(deadline.setup))
    await this.callToolService('reloadSources', 'Hot reload', {isolateId: isolate.id}, deadline)
  }

  /** Whether `flutter run` registered this service on the app's VM Service. */
  async offers(service: 'reloadSources' | 'hotRestart'): Promise<boolean> {
    return (await this.registeredServices()).has(service)
  }

  private async callToolService(
    service: string,
    what: 'Hot reload' | 'Hot restart',
    params: Record<string, unknown>,
    deadline?: Deadline,
  ): Promise<void> {
    const method = (await this.registeredServices()).get(service)
    if (!method) {
      throw new TapirError(
        `The app offers no ${service} service: only an app run by \`flutter run\` (or \`tapir start\`) can be ${what === 'Hot reload' ? 'hot reloaded' : 'hot restarted'}. Start it that way.`,
        'local',
      )
    }
    try {
      await this.client.call(method, params, deadline)
    } catch (error) {
      // flutter_tools answers a failed reload with -32000 "Unable to reload sources"; the compiler's
      // own words, when the tool sends them, are in data.details.
      if (error instanceof RpcError) throw new ReloadRejected(what, [error.rpcMessage.trim(), error.details].filter(Boolean).join('\n'))
      throw error
    }
  }

  private async registeredServices(): Promise<Map<string, string>> {
    if (this.services) return this.services
    const services = new Map<string, string>()
    await this.client.listen('Service', (event) => {
      if (event.kind === 'ServiceRegistered' && typeof event.service === 'string' && typeof event.method === 'string')
        services.set(event.service, event.method)
      if (event.kind === 'ServiceUnregistered' && typeof event.service === 'string') services.delete(event.service)
    })
    // The VM and DDS announce the services before the listen reply; DWDS with no DDS just after
    // it. One more round trip comes back behind those announcements.
    await this.client.call('getVersion')
    return (this.services = services)
  }

  close(): void {
    this.client.close()
  }

  /** Runs a call against the tapir isolate; after a hot restart (a Collected sentinel) it
   *  finds the new isolate and tries once more. */
  private async withIsolate(method: string, deadline: Deadline, call: (isolate: Isolate) => Promise<Result>): Promise<Result> {
    for (let attempt = 0; ; attempt++) {
      const isolate = this.isolate ?? (await this.resolveIsolate(deadline.setup))
      let result: Result
      try {
        result = await call(isolate)
      } catch (error) {
        if (error instanceof RpcError) throw method.startsWith('ext.') ? extensionFailure(method, error) : error
        throw error
      }
      if (!isCollected(result)) return result
      this.isolate = undefined
      if (attempt > 0) throw new TapirError(`The app's isolate went away during ${method} (hot restart in progress?). Try again.`, 'app')
    }
  }

  private async resolveIsolate(deadline: Deadline): Promise<Isolate> {
    const vm = await this.client.call('getVM', {}, deadline)
    const isolates: Isolate[] = []
    for (const id of isolateIds(vm)) {
      const answer = await this.client.call('getIsolate', {isolateId: id}, deadline)
      if (isCollected(answer)) continue
      const isolate = isolateOf(answer, id)
      if (lists(isolate, EXTENSION_PREFIX)) return (this.isolate = isolate)
      isolates.push(isolate)
    }
    // No isolate runs tapir: one on Dusk 0.0.1, else the first, so the VM's own -32601 explains it.
    const dusk = isolates.find((isolate) => lists(isolate, DUSK_PREFIX))
    if (dusk) return (this.isolate = dusk)
    if (isolates[0]) return (this.isolate = isolates[0])
    throw new TapirError('The VM Service reports no running isolate; is the Flutter app fully booted?', 'app')
  }
}
