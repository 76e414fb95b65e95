import type {Mounted} from '../frame.js'
import type {BlockRun} from './types.js'

/**
 * The synthetic cost model: what building each widget costs on the UI thread, and what the
 * raster thread pays to draw a tree. Every number is fixed, so a given interaction always
 * yields the same timings.
 */

/** Self time of one build, in ms, by widget type; anything unlisted costs DEFAULT_SELF_MS. */
const SELF_MS: Readonly<Record<string, number>> = {
  MaterialApp: 0.2,
  Navigator: 0.08,
  Scaffold: 0.12,
  NavigationBar: 0.15,
  NavigationDestination: 0.06,
  ListView: 0.1,
  SingleChildScrollView: 0.08,
  MonitorRow: 0.4,
  InkWell: 0.05,
  TextButton: 0.05,
  ElevatedButton: 0.06,
  OutlinedButton: 0.06,
  FilledButton: 0.06,
  IconButton: 0.04,
  BackButton: 0.04,
  FloatingActionButton: 0.08,
  Text: 0.015,
  TextField: 0.35,
  EditableText: 0.2,
  Switch: 0.07,
  MergeSemantics: 0.02,
  Semantics: 0.01,
  CheckboxListTile: 0.18,
  SwitchListTile: 0.18,
  DropdownButton: 0.25,
  DropdownMenu: 0.2,
  DropdownMenuItem: 0.04,
  Row: 0.03,
  AlertDialog: 0.15,
  ModalBarrier: 0.03,
}

const DEFAULT_SELF_MS = 0.03

/** What an app widget's build runs besides itself: extra profiled blocks it builds, per instance. */
interface Extra {
  readonly name: string
  readonly selfMs: number
  readonly count: number
}

/** A MonitorRow draws a 24-bar uptime sparkline: each bar is a widget of its own. */
export const SPARK_BARS_PER_ROW = 24

/** The Region dropdown on /settings rebuilds its region catalogue on every build: the heavy path. */
export const REGION_DROPDOWN_MS = 24

/** The regression knob: the sparkline rebuilds its bars a second time in every build (a
 *  setState during build), so each MonitorRow builds twice the SparkBars. */
export const REGRESSION_SPARK_BUILDS = 2

function extrasOf(m: Mounted, regression: boolean): readonly Extra[] {
  if (m.ui.widget === 'MonitorRow') {
    return [
      {name: 'UptimeSparkline', selfMs: 0.12, count: 1},
      {name: 'SparkBar', selfMs: 0.01, count: SPARK_BARS_PER_ROW * (regression ? REGRESSION_SPARK_BUILDS : 1)},
    ]
  }
  if (m.ui.widget === 'DropdownButton' && m.ui.key === 'region') return [{name: 'RegionDropdown', selfMs: REGION_DROPDOWN_MS, count: 1}]
  return []
}

/** The profiled blocks of building these widgets, summed by name in first-seen order. */
export function blocksOf(rebuilt: readonly Mounted[], regression = false): BlockRun[] {
  const byName = new Map<string, {selfMs: number; count: number}>()
  const add = (name: string, selfMs: number, count: number): void => {
    const entry = byName.get(name) ?? {selfMs: 0, count: 0}
    entry.selfMs += selfMs * count
    entry.count += count
    byName.set(name, entry)
  }
  for (const m of rebuilt) {
    add(m.ui.widget, SELF_MS[m.ui.widget] ?? DEFAULT_SELF_MS, 1)
    for (const extra of extrasOf(m, regression)) add(extra.name, extra.selfMs, extra.count)
  }
  return [...byName.entries()].map(([name, {selfMs, count}]) => ({name, selfMs: round3(selfMs), count}))
}

/** The pipeline's fixed cost per frame (begin frame, finalize tree). */
export const FRAME_OVERHEAD_MS = 0.4
/** flushSemantics: updating the node of each rebuilt widget that annotates semantics, while any handle holds the tree. */
const SEMANTICS_MS_PER_NODE = 0.02

export function semanticsMsOf(rebuilt: readonly Mounted[]): number {
  return round3(rebuilt.filter((m) => m.ui.semantics !== undefined).length * SEMANTICS_MS_PER_NODE)
}
/** Layout per rebuilt widget and paint per painted widget, shown as blocks only with `phases`. */
const LAYOUT_MS_PER_REBUILT = 0.008
const PAINT_MS_PER_PAINTED = 0.004

export function phaseBlocksOf(rebuiltCount: number, paintedCount: number): BlockRun[] {
  if (rebuiltCount === 0) return []
  return [
    {name: 'Layout', selfMs: round3(rebuiltCount * LAYOUT_MS_PER_REBUILT), count: rebuiltCount},
    {name: 'Paint', selfMs: round3(paintedCount * PAINT_MS_PER_PAINTED), count: paintedCount},
  ]
}

/** UI-thread time: the pipeline overhead, every build, layout and paint. */
export function buildMsOf(blocks: readonly BlockRun[], phases: readonly BlockRun[]): number {
  return round3(FRAME_OVERHEAD_MS + [...blocks, ...phases].reduce((sum, b) => sum + b.selfMs, 0))
}

const RASTER_BASE_MS = 0.8
const RASTER_MS_PER_PAINTED = 0.01
/** A route transition composites two pages with an animated layer. */
export const TRANSITION_RASTER_MS = 2.5
/** The first animated transition after boot compiles its shaders on the raster thread. */
export const SHADER_COMPILE_MS = 16

export function rasterMsOf(paintedCount: number, extra = 0): number {
  return round3(RASTER_BASE_MS + paintedCount * RASTER_MS_PER_PAINTED + extra)
}

/** The one block an animated transition frame builds. */
export function transitionBlock(popup: boolean): BlockRun {
  return popup ? {name: 'FadeTransition', selfMs: 0.1, count: 1} : {name: 'PageTransitionsBuilder', selfMs: 0.15, count: 1}
}

export const round3 = (value: number): number => Math.round(value * 1000) / 1000
