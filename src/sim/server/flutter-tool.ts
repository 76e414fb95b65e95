import {readFileSync} from 'node:fs'
import type {AppSource} from '../app-contract.js'
import {isolateEvent} from './events.js'
import type {ForwardedReply, Peer, SimVm} from './vm.js'

/** How long the stand-in for `flutter run` takes to recompile before it restarts the isolate. */
const RESTART_COMPILE_MS = 30
const RELOAD_COMPILE_MS = 20

/** Where the tool finds the app's "source": a JSON file standing for lib/ (absent: the defaults). */
export interface FlutterToolOptions {
  sourceFile?: string
}

type Compiled = {source: AppSource} | {compileError: string}

/** The front end's pass over the source: text that does not parse is a compile error, as
 *  broken Dart would be. */
function compile(sourceFile: string | undefined): Compiled {
  if (sourceFile === undefined) return {source: {}}
  let text: string
  try {
    text = readFileSync(sourceFile, 'utf8')
  } catch {
    return {source: {}}
  }
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      return {compileError: `${sourceFile}:1:1: Error: Expected an object of declarations.`}
    const title = (parsed as {signInTitle?: unknown}).signInTitle
    return {source: typeof title === 'string' ? {signInTitle: title} : {}}
  } catch (error) {
    return {compileError: `${sourceFile}:1:1: Error: ${(error as Error).message}`}
  }
}

/**
 * The client `flutter run` keeps on its app's VM Service (§5.2 of the protocol notes): it
 * registers `reloadSources` (a hot reload: recompile, then every widget builds again with the
 * state kept) and, for a native app, `hotRestart` (an isolate replacement, §5.4). On the web
 * `hotRestart` is DWDS's own (server/dwds-client.ts, §5.5). Without DDS (`--no-dds`) DWDS keeps
 * the registration under the bare name `reloadSources`, which its own `reloadSources` shadows:
 * a call by that name reaches DWDS, not this tool. `tapir start --device=sim` stands for
 * `flutter run`, so its sim has this client too.
 *
 * One liberty: where flutter_tools puts a stack trace in a failed reload's `data.details`, this
 * stand-in puts the compiler's output, so a double of `flutter run` can print it as flutter does.
 */
export function attachFlutterTool(vm: SimVm, options: FlutterToolOptions = {}): Peer {
  const booted = compile(options.sourceFile)
  if ('source' in booted) vm.app.reassemble?.(booted.source)
  const peer: Peer = {
    name: vm.nextPeerName(),
    streams: new Set(),
    services: new Map(toolServices(vm).map((service) => [service, 'Flutter Tools'])),
    send: () => {},
    async forward(service, params): Promise<ForwardedReply> {
      if (service === 'reloadSources') return reloadSources(vm, options, params)
      if (service !== 'hotRestart') return {error: {code: -32601, message: `Unknown service: ${service}`}}
      await new Promise((resolve) => setTimeout(resolve, RESTART_COMPILE_MS))
      const compiled = compile(options.sourceFile)
      if ('compileError' in compiled) return unable('Unable to restart', compiled.compileError)
      vm.hotRestart()
      vm.app.reassemble?.(compiled.source)
      return {result: {type: 'Success'}}
    },
  }
  vm.connect(peer)
  return peer
}

function toolServices(vm: SimVm): string[] {
  return vm.web ? ['reloadSources'] : ['reloadSources', 'hotRestart']
}

async function reloadSources(vm: SimVm, options: FlutterToolOptions, params: Record<string, unknown>): Promise<ForwardedReply> {
  const isolateId = params.isolateId
  if (typeof isolateId !== 'string' || isolateId === '') {
    return {
      error: {
        code: -32000,
        message: `reloadSources: (-32602) Invalid 'isolateId': ${isolateId === undefined ? 'null' : JSON.stringify(isolateId)}`,
      },
    }
  }
  await new Promise((resolve) => setTimeout(resolve, RELOAD_COMPILE_MS))
  const knob = vm.faults.reloadCompileError
  if (knob !== null) {
    vm.faults.reloadCompileError = null
    return unable('Unable to reload sources', knob)
  }
  const compiled = compile(options.sourceFile)
  if ('compileError' in compiled) return unable('Unable to reload sources', compiled.compileError)
  vm.app.reassemble?.(compiled.source)
  vm.broadcast('Isolate', isolateEvent('IsolateReload', vm.isolate))
  return {result: {type: 'Success'}}
}

function unable(message: string, compilerOutput: string): ForwardedReply {
  return {error: {code: -32000, message: `${message}: (-32603) `, data: {details: compilerOutput}}}
}
