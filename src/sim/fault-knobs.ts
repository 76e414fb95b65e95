// The fault knobs a background sim takes as text (`tapir start --device=sim --fault=...`,
// TAPIR_SIM_FAULTS), so a user can rehearse failures from a script. Pure: the CLI validates
// with it before it spawns the sim, and the sim's entry parses with it again.
import type {SimFaults} from './server/faults.js'

const LIFECYCLES = ['hidden', 'paused', 'detached'] as const
export type FaultLifecycle = (typeof LIFECYCLES)[number]

/** What the knobs ask of a sim: faults for its VM, a lifecycle for its app, a timed hot restart. */
export interface FaultPlan {
  faults: Partial<SimFaults>
  lifecycle?: FaultLifecycle
  restartIsolateAfterMs?: number
  /** Each monitor row's sparkline builds its bars twice: a regression perf_compare must catch. */
  perfRegression?: boolean
  /** Built with `--dart-define=TAPIR_FORCE_FRAMES=false`: a hidden window is not woken. */
  forceFrames?: false
  /** The backend holds this many monitors, so the list renders this many rows. */
  bigList?: number
  /** The in-app package the app registers: tapir, Dusk 0.0.1 (ext.dusk.*), both, or none (a plain debug app). */
  package?: SimPackageName
}

const PACKAGES = ['tapir', 'dusk', 'both', 'none'] as const
export type SimPackageName = (typeof PACKAGES)[number]

/** A knob that is unknown or has a bad value; the message is one line that names the fix. */
export class FaultKnobError extends Error {}

interface Knob {
  readonly name: string
  /** The value's placeholder; absent for a knob that takes none. */
  readonly value?: string
  readonly summary: string
  apply(plan: FaultPlan, value: string, spec: string): void
}

const MAX_MS = 600_000
const MAX_ROWS = 20_000

/** What the compiler says when the reload-error knob is on: a Dart front-end error as flutter prints it. */
export const RELOAD_COMPILE_ERROR = "lib/main.dart:12:7: Error: Expected ';' after this.\n      Text('Monitors')\n      ^^^^"

export const FAULT_KNOBS: readonly Knob[] = [
  {
    name: 'latency',
    value: '<ms>',
    summary: 'delay every reply',
    apply: (plan, value, spec) => (plan.faults.latencyMs = milliseconds(value, spec)),
  },
  {
    name: 'drop-socket',
    value: '<method>',
    summary: 'close the socket when this method is called',
    apply: (plan, value, spec) => (plan.faults.dropSocketOn = method(value, spec)),
  },
  {
    name: 'hang',
    value: '<method>',
    summary: 'never answer this method',
    apply: (plan, value, spec) => (plan.faults.hangOn = method(value, spec)),
  },
  {
    name: 'malformed',
    value: '<method>',
    summary: 'answer this method with a frame that is not JSON',
    apply: (plan, value, spec) => (plan.faults.malformedOn = method(value, spec)),
  },
  {name: 'paused-isolate', summary: 'hold extension calls, as at a breakpoint', apply: (plan) => (plan.faults.paused = true)},
  {
    name: 'lifecycle',
    value: '<state>',
    summary: `${LIFECYCLES.join(', ')}: no frames, verbs warn`,
    apply: (plan, value, spec) => (plan.lifecycle = lifecycle(value, spec)),
  },
  {
    name: 'missing-extensions',
    summary: 'register no ext.tapir.*, as if tapir were not installed',
    apply: (plan) => (plan.faults.extensionsMissing = true),
  },
  {
    name: 'reload-error',
    summary: 'the next hot reload fails with a compile error',
    apply: (plan) => (plan.faults.reloadCompileError = RELOAD_COMPILE_ERROR),
  },
  {
    name: 'isolate-restart',
    value: '<ms>',
    summary: 'hot-restart the isolate this long after start',
    apply: (plan, value, spec) => (plan.restartIsolateAfterMs = milliseconds(value, spec)),
  },
  {
    name: 'no-force-frames',
    summary: 'built with TAPIR_FORCE_FRAMES=false: a hidden window is not woken, verbs warn',
    apply: (plan) => (plan.forceFrames = false),
  },
  {
    name: 'big-list',
    value: '<rows>',
    summary: `the monitors list holds this many rows (1 to ${MAX_ROWS}), to measure a large snapshot`,
    apply: (plan, value, spec) => (plan.bigList = rows(value, spec)),
  },
  {
    name: 'package',
    value: '<tapir|dusk|both>',
    summary: "the in-app package the app registers: ext.tapir.*, Dusk 0.0.1's ext.dusk.*, both, or none",
    apply: (plan, value, spec) => (plan.package = packageName(value, spec)),
  },
  {
    name: 'perf-regression',
    summary: "rebuild each list row's sparkline twice per frame (also TAPIR_SIM_PERF_REGRESSION=1)",
    apply: (plan) => (plan.perfRegression = true),
  },
]

/** `latency=<ms>`, `paused-isolate`, ...: every knob as it is written. */
export const faultKnobUsage = (knob: Knob): string => (knob.value === undefined ? knob.name : `${knob.name}=${knob.value}`)

/** Knobs written as `name` or `name=value`; a later knob of the same name wins. */
export function parseFaultKnobs(specs: readonly string[]): FaultPlan {
  const plan: FaultPlan = {faults: {}}
  for (const spec of specs) {
    const [name, value] = splitSpec(spec)
    const knob = FAULT_KNOBS.find((candidate) => candidate.name === name)
    if (knob === undefined)
      throw new FaultKnobError(`Unknown fault knob "${name}"; use one of ${FAULT_KNOBS.map(faultKnobUsage).join(', ')}.`)
    if (knob.value === undefined && value !== undefined)
      throw new FaultKnobError(`Fault knob "${name}" takes no value; write it as ${name}.`)
    if (knob.value !== undefined && !value)
      throw new FaultKnobError(`Fault knob "${name}" needs a value; write it as ${faultKnobUsage(knob)}.`)
    knob.apply(plan, value ?? '', spec)
  }
  return plan
}

/** TAPIR_SIM_FAULTS: knobs separated by commas or spaces. */
export function faultSpecsFromEnv(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter((spec) => spec !== '')
}

function splitSpec(spec: string): [string, string | undefined] {
  const equals = spec.indexOf('=')
  return equals === -1 ? [spec, undefined] : [spec.slice(0, equals), spec.slice(equals + 1)]
}

function milliseconds(value: string, spec: string): number {
  const ms = /^\d+$/.test(value) ? Number(value) : Number.NaN
  if (!(ms <= MAX_MS))
    throw new FaultKnobError(`Fault knob ${spec}: give whole milliseconds from 0 to ${MAX_MS}, as in ${spec.split('=')[0]}=200.`)
  return ms
}

function rows(value: string, spec: string): number {
  const count = /^\d+$/.test(value) ? Number(value) : Number.NaN
  if (!(count >= 1 && count <= MAX_ROWS))
    throw new FaultKnobError(`Fault knob ${spec}: give a whole number of rows from 1 to ${MAX_ROWS}, as in big-list=5000.`)
  return count
}

function method(value: string, spec: string): string {
  if (!/^[A-Za-z_][\w.]*$/.test(value))
    throw new FaultKnobError(`Fault knob ${spec}: give a VM Service method name, as in ${spec.split('=')[0]}=ext.tapir.snap.`)
  return value
}

function packageName(value: string, spec: string): SimPackageName {
  const name = PACKAGES.find((candidate) => candidate === value)
  if (name === undefined) throw new FaultKnobError(`Fault knob ${spec}: the package is one of ${PACKAGES.join(', ')}.`)
  return name
}

function lifecycle(value: string, spec: string): FaultLifecycle {
  const state = LIFECYCLES.find((candidate) => candidate === value)
  if (state === undefined) throw new FaultKnobError(`Fault knob ${spec}: the lifecycle is one of ${LIFECYCLES.join(', ')}.`)
  return state
}
