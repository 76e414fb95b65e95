const PREFIX = 'tapir:'

/** The spelling differences that do not make another command: case, `-` for `_`, the prefix. */
const bare = (name: string): string =>
  name
    .toLowerCase()
    .replaceAll('-', '_')
    .replace(/^tapir:/, '')

/** Edits from one name to the other: an insertion, a deletion, a change, or two neighbours swapped. */
function editDistance(a: string, b: string): number {
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

/** The command a mistyped one most likely meant: the same name but for the `tapir:` prefix, case
 *  or `-`/`_`, else the closest within a third of its length; undefined when none is that close. */
export function nearestCommand(typed: string, ids: readonly string[]): string | undefined {
  const wanted = bare(typed)
  if (wanted === '' || wanted.length > 64) return undefined
  let best: {id: string; distance: number} | undefined
  for (const id of ids) {
    const distance = editDistance(wanted, bare(id))
    // On a tie the verb wins over a session command: `tapir snap` means tapir:snap.
    const better = !best || distance < best.distance || (distance === best.distance && id.startsWith(PREFIX) && !best.id.startsWith(PREFIX))
    if (better) best = {id, distance}
  }
  return best && best.distance <= Math.floor(wanted.length / 3) ? best.id : undefined
}
