/** Past this many cells the middle of two snapshots is compared as multisets of lines instead. */
const MAX_TABLE = 2_000_000

/** What changed from one snapshot to the next, line by line: `- old line` and `+ new line`, in
 *  order, the lines both hold left out; at most `max` lines, the last saying how many more. */
export function snapshotDiff(before: string, after: string, max: number): string[] {
  const a = before.split('\n')
  const b = after.split('\n')
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const oldLines = a.slice(start, endA)
  const newLines = b.slice(start, endB)
  const lines = oldLines.length * newLines.length <= MAX_TABLE ? lcsDiff(oldLines, newLines) : multisetDiff(oldLines, newLines)
  return lines.length > max ? [...lines.slice(0, max - 1), `… ${lines.length - max + 1} more changed lines`] : lines
}

function lcsDiff(a: string[], b: string[]): string[] {
  const width = b.length + 1
  const table = new Uint32Array((a.length + 1) * width)
  // The longest run of lines both hold from (i, j) on; a cell past either end holds 0.
  const at = (i: number, j: number): number => table[i * width + j] ?? 0
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i * width + j] = a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1))
  const out: string[] = []
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++
      j++
    } else if (at(i + 1, j) >= at(i, j + 1)) out.push(`- ${a[i++]}`)
    else out.push(`+ ${b[j++]}`)
  }
  while (i < a.length) out.push(`- ${a[i++]}`)
  while (j < b.length) out.push(`+ ${b[j++]}`)
  return out
}

function multisetDiff(a: string[], b: string[]): string[] {
  const count = new Map<string, number>()
  for (const line of b) count.set(line, (count.get(line) ?? 0) + 1)
  const removed: string[] = []
  for (const line of a) {
    const left = count.get(line) ?? 0
    if (left > 0) count.set(line, left - 1)
    else removed.push(`- ${line}`)
  }
  const kept = new Map<string, number>()
  for (const line of a) kept.set(line, (kept.get(line) ?? 0) + 1)
  const added: string[] = []
  for (const line of b) {
    const left = kept.get(line) ?? 0
    if (left > 0) kept.set(line, left - 1)
    else added.push(`+ ${line}`)
  }
  return [...removed, ...added]
}
