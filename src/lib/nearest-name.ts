/** Edits from one name to the other: an insertion, a deletion, a change, or two neighbours swapped. */
export function editDistance(a: string, b: string): number {
  // Three rows at a time: two back (for a swap), the one above, and the one being filled.
  let twoBack: number[] = []
  let above = Array.from({length: b.length + 1}, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const change = (above[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, change)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (twoBack[j - 2] ?? 0) + 1)
      row.push(best)
    }
    twoBack = above
    above = row
  }
  return above[b.length] ?? 0
}

/** The name a mistyped one most likely meant (case aside): the closest within a third of its
 *  length, at least one edit; undefined when none is that close. */
export function nearestName(typed: string, names: readonly string[]): string | undefined {
  const wanted = typed.toLowerCase()
  if (wanted === '' || wanted.length > 64) return undefined
  let best: {name: string; distance: number} | undefined
  for (const name of names) {
    const distance = editDistance(wanted, name.toLowerCase())
    if (!best || distance < best.distance) best = {name, distance}
  }
  return best && best.distance <= Math.max(1, Math.floor(wanted.length / 3)) ? best.name : undefined
}
