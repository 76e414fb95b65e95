import {cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {dirname, join, relative} from 'node:path'
import {createTwoFilesPatch} from 'diff'
import {ROOT} from './cli.js'

export const INSTALL_FIXTURES = join(ROOT, 'test', 'fixtures', 'install')

/** Every file under a folder, as paths relative to it. */
export function filesIn(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesIn(path).map((file) => join(name, file)) : [name]
  })
}

/** Copies a fixture's `before/` project into `dir`. */
export function copyProject(fixture: string, dir: string): void {
  cpSync(join(INSTALL_FIXTURES, fixture, 'before'), dir, {recursive: true})
}

/** Checks each file of the golden folder against the project's file of the same name, byte for
 *  byte; a mismatch fails with the unified diff. `UPDATE_GOLDENS=1` writes `after/` goldens
 *  instead (review them before committing); a fixture's `before/` is never written. */
export function expectGolden(project: string, golden: string): void {
  if (process.env.UPDATE_GOLDENS === '1' && golden.endsWith('after')) {
    for (const file of filesIn(project)) {
      mkdirSync(dirname(join(golden, file)), {recursive: true})
      writeFileSync(join(golden, file), readFileSync(join(project, file)))
    }
    return
  }
  if (!existsSync(golden)) throw new Error(`no golden folder ${relative(ROOT, golden)}: run with UPDATE_GOLDENS=1 and review it`)
  const problems: string[] = []
  for (const file of filesIn(golden)) {
    const expected = readFileSync(join(golden, file), 'latin1')
    const actual = existsSync(join(project, file)) ? readFileSync(join(project, file), 'latin1') : '<missing>'
    if (actual !== expected) problems.push(createTwoFilesPatch(`golden/${file}`, `actual/${file}`, expected, actual, undefined, undefined))
  }
  if (problems.length > 0) throw new Error(`differs from ${relative(ROOT, golden)}:\n${problems.join('\n')}`)
}
