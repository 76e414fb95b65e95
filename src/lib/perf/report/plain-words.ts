/** What a static report says in place of the app's terms and its pointers to live tools. */

/** The data sources an app may leave unread, in words. */
const SOURCES: Readonly<Record<string, string>> = {
  wind: 'the Wind styling counters',
  magic: 'the Magic counters',
  blocks: 'which widgets were built',
  blockSelfTime: 'the build time of each widget',
  timeline: 'the frame timeline',
}

/** An insight's metric, in words. */
const METRICS: Readonly<Record<string, string>> = {
  'frames.overBudget': 'frames over the budget',
  'frames.dropped': 'frames dropped',
  'frames.unreported': 'frames drawn but not reported',
  'coverage.missing': 'parts not measured',
  'blocks.selfMs': 'build time of the widget',
  'blocks.count': 'builds of the widget',
}

/** A metric name (`frames.overBudget`) as words: the known ones by name, others split apart. */
export function metricWords(metric: string): string {
  return (
    METRICS[metric] ??
    metric
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/[._]/g, ' ')
      .toLowerCase()
  )
}

/** The title of an insight in plain words: a list of unread sources names what they are. */
export function plainTitle(title: string): string {
  const unread = /^Sources not read: (.+)$/.exec(title)?.[1]
  if (unread === undefined) return title
  const names = unread.split(/,\s*/).map((name) => SOURCES[name] ?? name)
  return `Not measured in this run: ${names.join(', ')}`
}

/**
 * What to change, from an insight's next step: a page cannot run the tool it points at
 * ("Run tapir_perf_insight with id=… for …"), so that part goes and the change stays. A step that
 * was only that pointer gives way to what the insight's kind calls for.
 */
export function whatToChange(nextStep: string | undefined, metric: string | undefined): string | undefined {
  const kept = (nextStep ?? '')
    .replace(/\b(?:Run|Call) tapir_perf_insight\b[^;.]*?(?:[;.]\s*|,\s*then\s+|$)/gi, '')
    .replace(/^\s*then\s+/i, '')
    .trim()
  if (kept !== '' && kept !== '.') return kept.charAt(0).toUpperCase() + kept.slice(1)
  if (metric === 'coverage.missing')
    return 'Nothing to change in the app for this: read the parts not measured as unknown, not as zero. Register their sources in the app to measure them.'
  if (metric === 'frames.overBudget')
    return 'Make the work of the slowest frames cheaper: start with the widget that takes most build time in them.'
  return undefined
}

/** What a build mode's numbers mean, for the banner above them. */
export function buildModeNote(mode: unknown): {level: 'warn' | 'info'; text: string} {
  if (mode === 'debug')
    return {
      level: 'warn',
      text: 'Debug build: these times include debug-only work (assertions, unoptimised code) and run several times slower than what users get. Compare debug runs with each other only; measure a profile build (flutter run --profile) before you act on them.',
    }
  if (mode === 'profile')
    return {level: 'info', text: 'Profile build: optimised like a release build, so these times are close to what users get.'}
  if (mode === 'release') return {level: 'info', text: 'Release build: the times users get.'}
  return {
    level: 'warn',
    text: 'Build mode unknown: the app did not say whether it was a debug, profile or release build, so how far these times are from what users get is unknown.',
  }
}

/** `1 repeat`, `3 repeats`. */
export const count = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`
