/** Linear scales and round axis steps for the report's charts. */

/** A round step (1, 2, 2.5 or 5 times a power of ten) that cuts `span` into about `count` parts. */
export function niceStep(span: number, count: number): number {
  const raw = span > 0 && Number.isFinite(span) ? span / Math.max(count, 1) : 1
  const power = 10 ** Math.floor(Math.log10(raw))
  const fraction = raw / power
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10) * power
}

/** Axis ticks from 0 to a round top at or above `max`. */
export function ticks(max: number, count: number): {step: number; top: number; values: number[]} {
  const step = niceStep(max, count)
  const steps = Math.max(1, Math.ceil(max / step - 1e-9))
  return {step, top: steps * step, values: Array.from({length: steps + 1}, (_, index) => index * step)}
}

/** Maps [d0, d1] onto [r0, r1]. */
export function linear(domain: [number, number], range: [number, number]): (value: number) => number {
  const [d0, d1] = domain
  const [r0, r1] = range
  const span = d1 - d0 || 1
  return (value) => r0 + ((value - d0) / span) * (r1 - r0)
}

/** A tick label: no float noise (0.30000000000000004 is 0.3). */
export const tickLabel = (value: number): string => String(Number(value.toPrecision(6)))
