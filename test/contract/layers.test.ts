import {readFileSync, readdirSync, statSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'

/** Which folders of src/lib each folder may import from (DESIGN §2): the core knows nothing of
 *  oclif or MCP, and the sim is written against the protocol, not against the client. */
const ALLOWED: Record<string, string[]> = {
  vm: ['vm', 'errors.ts', 'output'],
  session: ['session', 'errors.ts', 'output', 'write-atomic.ts'],
  output: ['output', 'errors.ts', 'verbs', 'vm'],
  verbs: ['verbs', 'errors.ts', 'output', 'vm', 'write-atomic.ts', 'perf'],
  perf: ['perf', 'errors.ts', 'output', 'vm', 'write-atomic.ts'],
  runtime: ['runtime', 'errors.ts', 'output', 'vm', 'session', 'verbs'],
  run: ['run', 'errors.ts', 'output', 'verbs'],
  mcp: ['mcp', 'errors.ts', 'output', 'verbs', 'run', 'write-atomic.ts'],
  sim: ['sim'],
}
const PACKAGES_FORBIDDEN_IN_LIB = ['@oclif/']

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : []
  })
}

function imports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g)].map((match) => match[1] ?? match[2]!)
}

describe('layering of src/lib', () => {
  const lib = join(ROOT, 'src', 'lib')
  for (const [layer, allowed] of Object.entries(ALLOWED)) {
    it(`${layer}/ imports only from ${allowed.join(', ')}`, () => {
      for (const file of files(join(lib, layer))) {
        for (const target of imports(file)) {
          if (!target.startsWith('.')) {
            if (layer !== 'mcp') for (const forbidden of PACKAGES_FORBIDDEN_IN_LIB) expect(target.startsWith(forbidden), `${relative(ROOT, file)} imports ${target}`).toBe(false)
            continue
          }
          const top = relative(lib, resolve(dirname(file), target)).split(/[\\/]/)[0]!.replace(/\.js$/, '.ts')
          expect(allowed, `${relative(ROOT, file)} imports ${target}`).toContain(top)
        }
      }
    })
  }

  it('no src/lib file imports oclif or the commands', () => {
    for (const file of files(lib)) for (const target of imports(file)) expect(target.startsWith('@oclif/') || target.includes('/commands/'), `${relative(ROOT, file)} imports ${target}`).toBe(false)
  })
})
