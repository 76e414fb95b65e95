/**
 * The `snapshot: "diff"` text: only the lines that changed since the baseline. A changed row is
 * `- <old>` then `+ <new>`, an added row `+ <new>`, a removed row `- <old>`, then a
 * `(K of N lines changed)` footer: K counts each changed, added or removed row once, N every row
 * of the aligned pair (unchanged rows plus K).
 */
export function diffSnapshot(baseline: string, current: string): string {
  const before = lines(baseline)
  const after = lines(current)
  const body: string[] = []
  let changedRows = 0
  let unchangedRows = 0
  let removed: string[] = []
  let added: string[] = []
  const flush = (): void => {
    const paired = Math.min(removed.length, added.length)
    for (let i = 0; i < paired; i++) body.push(`- ${removed[i]}`, `+ ${added[i]}`)
    body.push(...removed.slice(paired).map((line) => `- ${line}`), ...added.slice(paired).map((line) => `+ ${line}`))
    changedRows += Math.max(removed.length, added.length)
    removed = []
    added = []
  }
  for (const step of align(before, after)) {
    if (step.kind === 'same') {
      flush()
      unchangedRows++
    } else if (step.kind === 'removed') removed.push(step.line)
    else added.push(step.line)
  }
  flush()
  return [...body, `(${changedRows} of ${unchangedRows + changedRows} lines changed)`].map((line) => `${line}\n`).join('')
}

const lines = (text: string): string[] => text.split('\n').filter((line, i, all) => i < all.length - 1 || line !== '')

type Step = {readonly kind: 'same' | 'removed' | 'added'; readonly line: string}

/** A longest-common-subsequence alignment of two line lists. */
function align(a: readonly string[], b: readonly string[]): Step[] {
  const common: number[][] = Array.from({length: a.length + 1}, () => new Array<number>(b.length + 1).fill(0))
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i]![j] = a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!)
    }
  }
  const steps: Step[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      steps.push({kind: 'same', line: a[i]!})
      i++
      j++
    } else if (j < b.length && (i === a.length || common[i]![j + 1]! >= common[i + 1]![j]!)) {
      steps.push({kind: 'added', line: b[j]!})
      j++
    } else {
      steps.push({kind: 'removed', line: a[i]!})
      i++
    }
  }
  return steps
}
