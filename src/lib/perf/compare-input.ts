import {resolve} from 'node:path'
import {UsageError} from '../errors.js'
import {readBoundedText} from '../read-bounded.js'
import type {RunFile} from './run-file.js'

export const COMPARE_USAGE = 'Usage: tapir:perf_compare <a.json> <b.json>: two files written by tapir:perf_run, the baseline first.'

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Refuses what is not a run file with a measured repeat, naming the side. */
export function checkRun(value: unknown, side: 'A' | 'B', path: string): RunFile {
  const summary = isObject(value) ? value.summary : undefined
  if (!isObject(value) || !isObject(summary) || !Number.isInteger(summary.repeats) || (summary.repeats as number) < 0) {
    throw new UsageError(`Run ${side} (${path}) is not a tapir:perf_run file: it has no summary.repeats count.`)
  }
  if (summary.repeats === 0) {
    throw new UsageError(
      `Run ${side} has no measured repeat: every one was refused (${Number(summary.refused ?? 0)}), so there is nothing to compare. Rerun it with the page in front.`,
    )
  }
  return value as RunFile
}

/** Reads one run file; an unreadable or non-JSON file is a one-line error. */
export function readRun(cwd: string, path: string, side: 'A' | 'B'): RunFile {
  const full = resolve(cwd, path)
  let text: string
  try {
    text = readBoundedText(full)
  } catch (error) {
    throw new UsageError(
      `Cannot read ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    )
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: not JSON (${(error as Error).message})`)
  }
  return checkRun(value, side, path)
}
