import {readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import ts from 'typescript'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'

/** Casts src/lib may hold at most: each one is a type the compiler takes on trust, where a shape
 *  (src/lib/shape.ts) or a type guard could check it instead. Lower it as casts go; never raise it. */
const MAX_CASTS = 25

function files(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  )
}

/** Every `x as T` and `<T>x` of a file's text, but `as const`, which asserts nothing. */
function casts(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && node.type.getText(source) !== 'const') {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
      found.push(`${relative(ROOT, file)}:${line}: as ${node.type.getText(source)}`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('casts in src/lib', () => {
  it(`are at most ${MAX_CASTS}`, () => {
    const all = files(join(ROOT, 'src', 'lib')).flatMap((file) => casts(file))
    expect(all.length, all.join('\n')).toBeLessThanOrEqual(MAX_CASTS)
  })

  it('counts a cast, and not `as const`', () => {
    expect(casts(join(ROOT, 'probe.ts'), 'const a = b as string; const c = [1] as const; const d = <number>e')).toHaveLength(2)
  })
})
