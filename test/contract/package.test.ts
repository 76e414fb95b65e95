import {readdirSync, readFileSync, statSync} from 'node:fs'
import {builtinModules} from 'node:module'
import {join, relative} from 'node:path'
import {execa} from 'execa'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>
  scripts: Record<string, string>
  oclif: {plugins: string[]}
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [relative(ROOT, path)]
  })
}

/** The package name of every bare import in a compiled file (`@scope/name/sub` → `@scope/name`). */
function packagesImportedBy(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^'.][^']*)'|(?:import|require)\('([^'.][^']*)'\)/g)]
    .map((match) => (match[1] ?? match[2])!)
    .filter((specifier) => !specifier.startsWith('node:') && !builtinModules.includes(specifier))
    .map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    )
}

describe('the npm package', () => {
  it('ships exactly what `npx tapir` needs: the compiled dist/ (with the verb bundle), bin/, README, CHANGELOG, LICENSE, package.json', async () => {
    // --ignore-scripts: prepack would rebuild dist/ under the feet of the tests running beside this one.
    const pack = await execa('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {cwd: ROOT})
    const packed = (JSON.parse(pack.stdout) as Array<{files: Array<{path: string}>}>)[0]!.files.map((file) => file.path).sort()
    const expected = [
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'bin/run.cjs',
      'bin/run.js',
      'package.json',
      ...filesUnder(join(ROOT, 'dist')),
    ].sort()
    expect(packed).toEqual(expected)
    for (const path of packed.filter((path) => path.startsWith('dist/') && !path.endsWith('.cjs')))
      expect(path, 'only compiled JavaScript: no maps, declarations or sources').toMatch(/\.js$/)
    for (const entry of ['dist/commands/index.js', 'dist/sim/main.js', 'dist/quick.cjs', 'dist/tapir.cjs']) expect(packed).toContain(entry)
  })

  it('prepack builds, so a packed tarball never carries a stale or missing dist/', () => {
    expect(pkg.scripts.prepack).toBe('npm run build')
  })

  it('every package the compiled code and the oclif config load is a runtime dependency, not a devDependency', () => {
    const imported = new Set([...filesUnder(join(ROOT, 'dist')), 'bin/run.cjs'].flatMap(packagesImportedBy))
    expect(imported).toContain('@oclif/core')
    for (const name of [...imported, ...pkg.oclif.plugins]) expect(Object.keys(pkg.dependencies), name).toContain(name)
  })
})
