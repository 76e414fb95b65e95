import {UsageError} from '../errors.js'

export interface Shard {
  /** 1-based. */
  index: number
  total: number
}

const MAX_SHARDS = 1000

/** `--shard=i/n`: the i-th of n shards, 1 ≤ i ≤ n. */
export function parseShard(text: string): Shard {
  const match = /^(\d{1,4})\/(\d{1,4})$/.exec(text.trim())
  const index = Number(match?.[1])
  const total = Number(match?.[2])
  if (!match || total < 1 || total > MAX_SHARDS || index < 1 || index > total)
    throw new UsageError(`--shard=${text}: give i/n, the i-th of n shards (1 ≤ i ≤ n ≤ ${MAX_SHARDS}), e.g. --shard=1/4.`)
  return {index, total}
}

/**
 * The tests of one shard, the same on every machine for the same files and durations. Without
 * durations, the files in their sorted order are dealt out in turn. With the durations of a last
 * report, the longest test goes first to the shard with the least time so far (a file the report
 * does not know counts as the average of those it knows), so the shards end at about the same time.
 */
export function pickShard(files: readonly string[], shard: Shard, durations?: ReadonlyMap<string, number>): string[] {
  if (!durations || durations.size === 0) return files.filter((_, index) => index % shard.total === shard.index - 1)
  const known = files.map((file) => durations.get(file)).filter((ms): ms is number => ms !== undefined)
  const average = known.length === 0 ? 1 : known.reduce((sum, ms) => sum + ms, 0) / known.length
  const weighted = files.map((file) => ({file, ms: durations.get(file) ?? average}))
  weighted.sort((a, b) => b.ms - a.ms || (a.file < b.file ? -1 : 1))
  const loads = Array.from({length: shard.total}, () => 0)
  const mine: string[] = []
  for (const {file, ms} of weighted) {
    let least = 0
    for (let index = 1; index < loads.length; index++) if (loads[index] < loads[least]) least = index
    loads[least] += ms
    if (least === shard.index - 1) mine.push(file)
  }
  return mine.sort()
}
