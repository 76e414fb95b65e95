/**
 * The README, and the guides its sections link to, as tested documents: their fenced blocks,
 * what each is for, and how a transcript's output is compared with what a run prints.
 *
 * A block's purpose comes from its fence and from an optional marker on the line before it:
 * - `<!-- readme-test: needs-flutter -->` (or `needs-device`): the block needs a real Flutter
 *   toolchain or a device, and is the only kind left unrun;
 * - `<!-- readme-test: setup -->`: the install commands, which `.ci/run` runs as written;
 * - `<!-- readme-test: no-app -->`: runs with no app recorded (commands that start their own);
 * - a `yaml` block whose first line is `# <path>` is a file the later blocks use;
 * - a `console` block is a transcript: `$ ` lines are run, the lines under each are its output;
 * - an `sh` block is a script that must succeed.
 */

/** The documents whose examples run, in the order a newcomer reads them: the README, then the
 *  guides its short sections link to, then the command reference. A later block may use a file
 *  an earlier one wrote (the perf scenarios, a recording). */
export const RUN_DOCS = [
  'README.md',
  'docs/sim-faults.md',
  'docs/tests-in-ci.md',
  'docs/recording.md',
  'docs/dusk.md',
  'docs/flutter-web.md',
  'docs/mcp.md',
  'docs/performance.md',
  'docs/benchmark.md',
  'docs/commands.md',
] as const

export type BlockKind = 'console' | 'sh' | 'file' | 'setup' | 'skipped'

export interface ReadmeBlock {
  kind: BlockKind
  /** The document the block is in, as named in messages (`docs/flutter-web.md`). */
  file: string
  /** The first line of the block's body in its document, 1-based. */
  line: number
  body: string[]
  /** A file block's path; a skipped block's reason. */
  note?: string
  noApp: boolean
}

const MARKER = /^<!-- readme-test: ([a-z-]+) -->$/
const SKIPPED = new Set(['needs-flutter', 'needs-device', 'needs-network'])

/** Every fenced block of a document, classified; an unknown marker or an unclassifiable block throws. */
export function readmeBlocks(text: string, file = 'README.md'): ReadmeBlock[] {
  const lines = text.split('\n')
  const blocks: ReadmeBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)```(\S*)\s*$/.exec(lines[i]!)
    if (!fence) continue
    const [, indent, info] = fence
    const start = i + 1
    let end = start
    while (end < lines.length && lines[end]!.trim() !== '```') end++
    const body = lines.slice(start, end).map((line) => (line.startsWith(indent!) ? line.slice(indent!.length) : line))
    const previous = lines
      .slice(0, i)
      .reverse()
      .find((line) => line.trim() !== '')
      ?.trim()
    const marker = previous === undefined ? undefined : MARKER.exec(previous)?.[1]
    if (marker !== undefined && !SKIPPED.has(marker) && marker !== 'setup' && marker !== 'no-app')
      throw new Error(`${file}:${i + 1}: unknown marker readme-test: ${marker}`)
    blocks.push(classify(info!, body, file, start + 1, marker))
    i = end
  }
  return blocks
}

function classify(info: string, body: string[], file: string, line: number, marker: string | undefined): ReadmeBlock {
  const noApp = marker === 'no-app'
  if (marker !== undefined && SKIPPED.has(marker)) return {kind: 'skipped', file, line, body, note: marker, noApp}
  if (marker === 'setup') return {kind: 'setup', file, line, body, noApp}
  if (info === 'yaml') {
    const path = /^# (\S+\.ya?ml)$/.exec(body[0] ?? '')?.[1]
    if (!path) throw new Error(`${file}:${line}: a yaml block must name its file on its first line (# perf/list.yaml)`)
    return {kind: 'file', file, line, body, note: path, noApp}
  }
  if (info === 'console') return {kind: 'console', file, line, body, noApp}
  if (info === 'sh' || info === '') return {kind: 'sh', file, line, body, noApp}
  throw new Error(`${file}:${line}: a \`\`\`${info} block is neither run nor marked`)
}

export interface TranscriptStep {
  command: string
  expected: string[]
}

/** A console block's commands, each with the output lines shown under it. */
export function transcript(block: ReadmeBlock): TranscriptStep[] {
  const steps: TranscriptStep[] = []
  for (const line of block.body) {
    if (line.startsWith('$ ')) steps.push({command: line.slice(2), expected: []})
    else if (steps.length === 0) throw new Error(`${block.file}:${block.line}: a console block starts with a $ line`)
    else steps.at(-1)!.expected.push(line)
  }
  return steps
}

/** Whether a block records its own app (start or attach), so the test must not start one. */
export function startsItsOwnApp(block: ReadmeBlock): boolean {
  return block.body.some((line) => /^(\$ )?(\S+=\S+ )*tapir (start|attach)\b/.test(line))
}

/** What differs from run to run, made the same on both sides: pids, ports, session folders,
 *  temp folders, durations and timestamps. */
export function normalise(text: string, workDir: string, home: string): string {
  return (
    text
      // The README's own user: Ada, with her app in ~/app.
      .replaceAll('/home/ada/app', '<work>')
      .replaceAll('/home/ada', '~')
      .replaceAll(workDir, '<work>')
      .replaceAll(home, '~')
      .replace(/\/\S*\/\.tapir\/sessions\/[0-9a-f]{12}\//g, '~/.tapir/sessions/<hash>/')
      .replace(/~\/\.tapir\/sessions\/[0-9a-f]{12}\//g, '~/.tapir/sessions/<hash>/')
      .replace(/\b(pid[=: ]+)\d+/g, '$1<n>')
      .replace(/\b((?:127\.0\.0\.1|localhost):)\d+/g, '$1<port>')
      .replace(/\b(cdpPort[=": ]+)\d+/g, '$1<port>')
      .replace(/\/tmp\/tapir-chrome-\d+-\w+/g, '<profile>')
      .replace(/\b\d+(\.\d+)? (ms|s)\b/g, '<n> $2')
      .replace(/\b\d+ bytes \(\d+(\.\d+)? KB\b/g, '<n> bytes (<n> KB')
      .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b/g, '<time>')
      .replace(/[ \t]+$/gm, '')
  )
}

/** Whether `actual` reads as `expected`, where a line `…` in `expected` stands for any lines. */
export function matchesTranscript(actual: string[], expected: string[]): boolean {
  const match = (a: number, e: number): boolean => {
    if (e === expected.length) return a === actual.length
    if (expected[e] === '…') {
      for (let skip = a; skip <= actual.length; skip++) if (match(skip, e + 1)) return true
      return false
    }
    return a < actual.length && actual[a] === expected[e] && match(a + 1, e + 1)
  }
  return match(0, 0)
}
