/** The run file tapir:perf_run writes and tapir:perf_compare reads (`<out>/<scenario>-<label>.json`):
 *  one shape, so perf_compare judges numbers and nothing else, and its type follows from it. A
 *  mismatch's words are the run file's own (run-file-check.ts says them). */
import {
  anything,
  boolean,
  described,
  isJsonObject,
  list,
  nullable,
  object,
  optional,
  record,
  refined,
  scalar,
  string,
  type FieldsOf,
  type Infer,
} from '../shape.js'

/** A metric's name as a field path: its text (it names a widget or a counter), quoted, bounded. */
const entryPath = (path: string, key: string): string => `${path}[${JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}…` : key)}]`

const count = scalar(
  'a whole number of at least 0',
  (value): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0,
)
const measure = scalar(
  'a number of at least 0',
  (value): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0,
)
/** Text, or nothing said (absent or null). */
const optionalText = optional(described('text', nullable(string)))
const metrics = described('an object of metric: number', record(measure, entryPath))

const spreadFields = {min: measure, max: measure, rangePct: described('a number of at least 0', nullable(measure))}
/** A metric's repeat-to-repeat range: the noise a change must exceed to count. */
export type Spread = FieldsOf<typeof spreadFields>
const spread = refined(described('a {min, max, rangePct} object', object(spreadFields)), (value) =>
  isJsonObject(value) && typeof value.min === 'number' && typeof value.max === 'number' && value.min > value.max
    ? 'min is above max'
    : undefined,
)
const spreads = described('an object of metric: {min, max, rangePct}', record(spread, entryPath))

const thresholdFields = {warn: measure, error: measure}
export type Thresholds = FieldsOf<typeof thresholdFields>
const thresholds = refined(described('a {warn, error} object', object(thresholdFields)), (value) =>
  isJsonObject(value) && typeof value.warn === 'number' && typeof value.error === 'number' && !(value.warn > 0 && value.warn < value.error)
    ? '0 < warn < error is expected'
    : undefined,
)

const seriesSummary = described(
  'a {repeats, refused, ms, spread} object',
  object({repeats: count, refused: count, ms: metrics, spread: described('a {ms} object', object({ms: spreads}))}),
)
export type SeriesSummary = Infer<typeof seriesSummary>

const runSummary = object({
  repeats: count,
  refused: count,
  frames: described(
    'a {count, painted, dropped, overBudget} object',
    object({count: measure, painted: measure, dropped: measure, overBudget: measure}),
  ),
  perFrame: metrics,
  ms: metrics,
  spread: described('a {perFrame, ms} object', object({perFrame: spreads, ms: spreads})),
  timing: optional(seriesSummary),
})
export type RunSummary = Infer<typeof runSummary>

export const runFileShape = described(
  'a JSON object',
  object({
    scenario: object({name: optionalText, thresholds: optional(thresholds)}),
    label: described('text', string),
    variant: optionalText,
    env: object({target: optionalText, buildMode: optionalText, emulator: optional(described('true or false', boolean))}),
    summary: runSummary,
    insights: list(anything),
    repeats: optional(list(anything)),
  }),
)
export type RunFile = Infer<typeof runFileShape>

export const DEFAULT_THRESHOLDS: Thresholds = {warn: 10, error: 25}
