// The shape tapir:perf_run writes a run file in (run-file.ts), checked field by field, so that
// perf_compare judges numbers and nothing else, and says everything that is wrong at once. A
// problem names the field and what it holds instead, never the value: the file may be anything.
import {isJsonObject} from '../shape.js'

/** The most problems listed per file: the rest are counted. */
const MAX_PROBLEMS = 20

type Value = unknown

function kindOf(value: Value): string {
  if (value === undefined) return 'missing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'a number too large to use'
    if (value < 0) return 'a negative number'
    if (!Number.isInteger(value)) return 'a fraction'
  }
  return `a ${typeof value}`
}

/** A metric's name as a field path: its text (it names a widget or a counter), quoted, bounded. */
const entry = (where: string, key: string): string => `${where}[${JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}…` : key)}]`

class Problems {
  readonly list: string[] = []

  add(where: string, expected: string, value: Value): void {
    this.list.push(`${where}: ${expected} is expected, not ${kindOf(value)}`)
  }

  object(value: Value, where: string, expected = 'an object'): Record<string, unknown> | undefined {
    if (isJsonObject(value)) return value
    this.add(where, expected, value)
    return undefined
  }

  count(value: Value, where: string): void {
    if (!(typeof value === 'number' && Number.isInteger(value) && value >= 0)) this.add(where, 'a whole number of at least 0', value)
  }

  measure(value: Value, where: string): void {
    if (!(typeof value === 'number' && Number.isFinite(value) && value >= 0)) this.add(where, 'a number of at least 0', value)
  }

  optionalString(value: Value, where: string): void {
    if (value !== undefined && value !== null && typeof value !== 'string') this.add(where, 'text', value)
  }

  metrics(value: Value, where: string): void {
    const record = this.object(value, where, 'an object of metric: number')
    if (record) for (const [key, metric] of Object.entries(record)) this.measure(metric, entry(where, key))
  }

  spreads(value: Value, where: string): void {
    const record = this.object(value, where, 'an object of metric: {min, max, rangePct}')
    if (!record) return
    for (const [key, raw] of Object.entries(record)) {
      const at = entry(where, key)
      const spread = this.object(raw, at, 'a {min, max, rangePct} object')
      if (!spread) continue
      this.measure(spread.min, `${at}.min`)
      this.measure(spread.max, `${at}.max`)
      if (typeof spread.min === 'number' && typeof spread.max === 'number' && spread.min > spread.max)
        this.list.push(`${at}: min is above max`)
      if (spread.rangePct !== null) this.measure(spread.rangePct, `${at}.rangePct`)
    }
  }
}

/** Every way `value` differs from a run file, or [] when it is one. */
export function runFileProblems(value: Value): string[] {
  const problems = new Problems()
  const run = problems.object(value, 'the file', 'a JSON object')
  if (!run) return problems.list
  const scenario = problems.object(run.scenario, 'scenario')
  if (scenario) {
    problems.optionalString(scenario.name, 'scenario.name')
    if (scenario.thresholds !== undefined) {
      const thresholds = problems.object(scenario.thresholds, 'scenario.thresholds', 'a {warn, error} object')
      if (thresholds) {
        problems.measure(thresholds.warn, 'scenario.thresholds.warn')
        problems.measure(thresholds.error, 'scenario.thresholds.error')
        if (
          typeof thresholds.warn === 'number' &&
          typeof thresholds.error === 'number' &&
          !(thresholds.warn > 0 && thresholds.warn < thresholds.error)
        )
          problems.list.push('scenario.thresholds: 0 < warn < error is expected')
      }
    }
  }
  if (typeof run.label !== 'string') problems.add('label', 'text', run.label)
  problems.optionalString(run.variant, 'variant')
  const env = problems.object(run.env, 'env')
  if (env) {
    problems.optionalString(env.target, 'env.target')
    problems.optionalString(env.buildMode, 'env.buildMode')
    if (env.emulator !== undefined && typeof env.emulator !== 'boolean') problems.add('env.emulator', 'true or false', env.emulator)
  }
  const summary = problems.object(run.summary, 'summary')
  if (summary) {
    problems.count(summary.repeats, 'summary.repeats')
    problems.count(summary.refused, 'summary.refused')
    const frames = problems.object(summary.frames, 'summary.frames', 'a {count, painted, dropped, overBudget} object')
    if (frames) for (const key of ['count', 'painted', 'dropped', 'overBudget']) problems.measure(frames[key], `summary.frames.${key}`)
    problems.metrics(summary.perFrame, 'summary.perFrame')
    problems.metrics(summary.ms, 'summary.ms')
    const spread = problems.object(summary.spread, 'summary.spread', 'a {perFrame, ms} object')
    if (spread) {
      problems.spreads(spread.perFrame, 'summary.spread.perFrame')
      problems.spreads(spread.ms, 'summary.spread.ms')
    }
    if (summary.timing !== undefined) {
      const timing = problems.object(summary.timing, 'summary.timing', 'a {repeats, refused, ms, spread} object')
      if (timing) {
        problems.count(timing.repeats, 'summary.timing.repeats')
        problems.count(timing.refused, 'summary.timing.refused')
        problems.metrics(timing.ms, 'summary.timing.ms')
        const timingSpread = problems.object(timing.spread, 'summary.timing.spread', 'a {ms} object')
        if (timingSpread) problems.spreads(timingSpread.ms, 'summary.timing.spread.ms')
      }
    }
  }
  if (!Array.isArray(run.insights)) problems.add('insights', 'a list', run.insights)
  if (run.repeats !== undefined && !Array.isArray(run.repeats)) problems.add('repeats', 'a list', run.repeats)
  const list = problems.list
  return list.length > MAX_PROBLEMS ? [...list.slice(0, MAX_PROBLEMS), `… and ${list.length - MAX_PROBLEMS} more problems`] : list
}
