/** Whether a parsed JSON value nests arrays and objects deeper than `limit` (the value itself is
 *  level 1). Walked level by level, without recursion, so a hostile answer is refused before
 *  anything recursive reads it (JSON.stringify overflows the stack some thousands of levels
 *  down); a string costs nothing however long it is. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  let level: object[] = isContainer(value) ? [value] : []
  for (let depth = 1; level.length > 0; depth++) {
    if (depth > limit) return true
    const next: object[] = []
    for (const container of level) {
      for (const child of Array.isArray(container) ? container : Object.values(container)) if (isContainer(child)) next.push(child)
    }
    level = next
  }
  return false
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null
}
