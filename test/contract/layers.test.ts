import {readFileSync, readdirSync, statSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'

/** What each folder of src may import from (DESIGN §2), as folders or files under src/lib: the
 *  core knows nothing of oclif, MCP or exit codes; only the output layer turns failures into
 *  codes and lines. The sim (src/sim) is written against the protocol, not against the client. */
const ALLOWED: Record<string, string[]> = {
  vm: ['errors.ts', 'shape.ts', 'json-depth.ts', 'output/redact-token.ts'],
  cdp: ['errors.ts', 'shape.ts', 'json-kind.ts', 'executable.ts', 'write-atomic.ts'],
  session: ['errors.ts', 'shape.ts', 'json-depth.ts', 'json-kind.ts', 'write-atomic.ts'],
  a11y: ['errors.ts', 'shape.ts'],
  verbs: ['errors.ts', 'shape.ts', 'a11y', 'vm', 'cdp', 'perf', 'zero', 'output-file.ts', 'write-atomic.ts'],
  zero: ['errors.ts', 'shape.ts', 'vm', 'verbs', 'output-file.ts', 'write-atomic.ts'],
  perf: ['errors.ts', 'shape.ts', 'json-kind.ts', 'vm', 'cdp', 'output-file.ts', 'read-bounded.ts', 'write-atomic.ts'],
  output: ['errors.ts', 'shape.ts', 'verbs', 'vm'],
  run: ['errors.ts', 'shape.ts', 'nearest-name.ts', 'output', 'verbs', 'perf'],
  flutter: ['errors.ts', 'shape.ts', 'bounded-lines.ts', 'executable.ts'],
  record: [
    'errors.ts',
    'shape.ts',
    'verbs',
    'vm',
    'run',
    'output/terminal-safe.ts',
    'output-file.ts',
    'read-bounded.ts',
    'write-atomic.ts',
  ],
  trace: [
    'errors.ts',
    'shape.ts',
    'verbs',
    'vm',
    'zero',
    'output/redact-token.ts',
    'executable.ts',
    'output-file.ts',
    'read-bounded.ts',
    'write-atomic.ts',
  ],
  runtime: [
    'errors.ts',
    'nearest-name.ts',
    'record',
    'trace',
    'shape.ts',
    'bounded-lines.ts',
    'output/redact-token.ts',
    'vm',
    'cdp',
    'session',
    'verbs',
    'flutter',
    'install',
    'write-atomic.ts',
  ],
  mcp: [
    'errors.ts',
    'shape.ts',
    'commands',
    'output',
    'verbs',
    'run',
    'trace',
    'vm/deadline.ts',
    'cdp/image-check.ts',
    'user-file.ts',
    'write-atomic.ts',
  ],
  // Commands as data (their type) and the one runner: no oclif, no MCP.
  'lib/commands': ['errors.ts', 'output', 'session', 'verbs'],
  suite: [
    'errors.ts',
    'shape.ts',
    'json-depth.ts',
    'a11y',
    'output',
    'verbs',
    'vm',
    'run',
    'perf',
    'trace',
    'output-file.ts',
    'read-bounded.ts',
    'write-atomic.ts',
  ],
  install: ['errors.ts', 'shape.ts', 'read-bounded.ts', 'session/project-root.ts', 'user-file.ts', 'write-atomic.ts'],
  cli: ['errors.ts', 'nearest-name.ts', 'commands', 'output', 'verbs', 'run', 'runtime', 'trace'],
  oclif: ['errors.ts', 'nearest-name.ts', 'commands', 'output', 'verbs', 'vm', 'session', 'run', 'runtime', 'mcp', 'install'],
  commands: [
    'errors.ts',
    'commands',
    'record',
    'shape.ts',
    'bounded-lines.ts',
    'output',
    'verbs',
    'vm',
    'cdp',
    'session',
    'run',
    'suite',
    'trace',
    'runtime',
    'flutter',
    'mcp',
    'install',
    'write-atomic.ts',
  ],
}
/** Which front end may import which: each only those below it (commands, then oclif, then cli). */
const FRONT_ENDS: Record<string, string[]> = {cli: [], oclif: ['cli'], commands: ['cli', 'oclif']}
const PACKAGES_ONLY_IN: Record<string, string[]> = {'@oclif/': ['oclif'], '@modelcontextprotocol/': ['mcp']}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : []
  })
}

function imports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g)].map(
    (match) => match[1] ?? match[2]!,
  )
}

const SRC = join(ROOT, 'src')
const LIB = join(SRC, 'lib')
// src/lib/commands is a layer of the core, src/commands the front end that defines the commands.
const layerOf = (file: string): string => {
  if (!file.startsWith(LIB)) return relative(SRC, file).split(/[\\/]/)[0]!
  const layer = relative(LIB, file).split(/[\\/]/)[0]!
  return layer === 'commands' ? 'lib/commands' : layer
}
const target = (file: string, specifier: string): string => resolve(dirname(file), specifier).replace(/\.js$/, '.ts')

describe('layering of src', () => {
  const client = [...files(LIB), ...['cli', 'oclif', 'commands'].flatMap((folder) => files(join(SRC, folder)))]
  for (const [layer, allowed] of Object.entries(ALLOWED)) {
    it(`${layer}/ imports only from itself and ${allowed.join(', ')}`, () => {
      for (const file of client.filter((candidate) => layerOf(candidate) === layer)) {
        for (const specifier of imports(file)) {
          if (!specifier.startsWith('.')) {
            for (const [prefix, owners] of Object.entries(PACKAGES_ONLY_IN)) {
              if (specifier.startsWith(prefix)) expect(owners, `${relative(ROOT, file)} imports ${specifier}`).toContain(layer)
            }
            continue
          }
          const into = target(file, specifier)
          if (!into.startsWith(LIB)) {
            // The front ends: src/cli knows no oclif; src/lib knows neither.
            const front = relative(SRC, into).split(/[\\/]/)[0] ?? ''
            if (front in FRONT_ENDS)
              expect(front === layer || FRONT_ENDS[layer]?.includes(front), `${relative(ROOT, file)} imports ${specifier}`).toBe(true)
            continue // commands may import the sim's fault knobs: checked below
          }
          const path = relative(LIB, into)
          const ok = layerOf(into) === layer || allowed.some((entry) => path === entry || path.startsWith(`${entry}/`))
          expect(ok, `${relative(ROOT, file)} imports ${specifier}`).toBe(true)
        }
      }
    })
  }

  it('every folder of src is covered by a rule', () => {
    const folders = new Set([...files(LIB).map(layerOf), 'cli', 'oclif', 'commands'].filter((layer) => !layer.endsWith('.ts')))
    for (const folder of folders) expect(Object.keys(ALLOWED), folder).toContain(folder)
  })

  it('has no import cycle, static or dynamic', () => {
    const graph = new Map(
      client.map((file) => [
        file,
        imports(file)
          .filter((specifier) => specifier.startsWith('.'))
          .map((specifier) => target(file, specifier)),
      ]),
    )
    const state = new Map<string, 'open' | 'done'>()
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return
      if (state.get(file) === 'open')
        throw new Error(`import cycle: ${[...path.slice(path.indexOf(file)), file].map((step) => relative(SRC, step)).join(' -> ')}`)
      state.set(file, 'open')
      for (const next of graph.get(file) ?? []) visit(next, [...path, file])
      state.set(file, 'done')
    }
    for (const file of graph.keys()) visit(file, [])
  })
})

describe('the simulated app stands apart', () => {
  const sim = join(ROOT, 'src', 'sim')
  it('the client imports from src/sim only the fault knobs that tapir start validates', () => {
    for (const file of [...files(join(ROOT, 'src', 'lib')), ...files(join(ROOT, 'src', 'commands'))]) {
      for (const target of imports(file)) {
        const into = relative(sim, resolve(dirname(file), target))
        if (target.startsWith('.') && !into.startsWith('..'))
          expect(into, `${relative(ROOT, file)} imports ${target}`).toBe('fault-knobs.js')
      }
    }
  })

  it('src/sim imports only from src/sim', () => {
    for (const file of files(sim)) {
      for (const target of imports(file)) {
        if (!target.startsWith('.')) continue
        expect(relative(sim, resolve(dirname(file), target)).startsWith('..'), `${relative(ROOT, file)} imports ${target}`).toBe(false)
      }
    }
  })
})
