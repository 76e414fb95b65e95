import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeAll, beforeEach, describe, expect, it, vi} from 'vitest'
import type * as Install from '../../src/lib/install/install.js'
import type * as WriteAtomic from '../../src/lib/write-atomic.js'
import {tempDir} from '../helpers/cli.js'
import {copyProject, expectGolden, INSTALL_FIXTURES} from '../helpers/golden.js'

/** The safe writer, with a switch that makes its next write of a given file fail (a full disk). */
const failing = vi.hoisted(() => ({file: undefined as string | undefined}))
vi.mock('../../src/lib/write-atomic.js', async (importActual) => {
  const actual = await importActual<typeof WriteAtomic>()
  return {
    ...actual,
    writeAtomic: (path: string, data: string | Uint8Array, options?: WriteAtomic.WriteOptions) => {
      if (failing.file !== undefined && path.endsWith(failing.file)) {
        failing.file = undefined
        throw actual.fileError('write', path, Object.assign(new Error('no space'), {code: 'ENOSPC'}))
      }
      actual.writeAtomic(path, data, options)
    },
  }
})

// The unit tier shares modules between files (--no-isolate): install.js may already be loaded
// with the real writer, so it is loaded afresh here, where the mock above applies.
let applyPlan: typeof Install.applyPlan
let planInstall: typeof Install.planInstall
beforeAll(async () => {
  vi.resetModules()
  ;({applyPlan, planInstall} = await import('../../src/lib/install/install.js'))
})

let project: {path: string; remove(): void}
beforeEach(() => {
  project = tempDir('tapir-install-')
  copyProject('counter', project.path)
})
afterEach(() => project.remove())

const before = join(INSTALL_FIXTURES, 'counter', 'before')

describe('writing both files or neither', () => {
  for (const file of ['pubspec.yaml', 'lib/main.dart']) {
    it(`${file} changed between reading and writing: refused, neither file written`, async () => {
      const plan = await planInstall({cwd: project.path, force: false})
      const edited = `${readFileSync(join(project.path, file), 'utf8')}\n`
      writeFileSync(join(project.path, file), edited)
      expect(() => applyPlan(plan, 'tapir install')).toThrow(
        `${file} changed while tapir worked: run tapir install again. Nothing was written.`,
      )
      expect(readFileSync(join(project.path, file), 'utf8')).toBe(edited)
      const other = file === 'pubspec.yaml' ? 'lib/main.dart' : 'pubspec.yaml'
      expect(readFileSync(join(project.path, other), 'utf8')).toBe(readFileSync(join(before, other), 'utf8'))
    })
  }

  it('a write that fails after pubspec.yaml was written puts pubspec.yaml back', async () => {
    const plan = await planInstall({cwd: project.path, force: false})
    failing.file = 'main.dart'
    expect(() => applyPlan(plan, 'tapir install')).toThrow(
      `Cannot write ${join(project.path, 'lib', 'main.dart')}: no space left on the device (ENOSPC). Nothing was changed.`,
    )
    expectGolden(project.path, before)
  })

  it('a main.dart that is not UTF-8 is refused before anything is planned', async () => {
    const path = join(project.path, 'lib', 'main.dart')
    writeFileSync(path, Buffer.concat([Buffer.from('// caf'), Buffer.from([0xe9]), Buffer.from('\n'), readFileSync(path)]))
    await expect(planInstall({cwd: project.path, force: false})).rejects.toThrow(
      'lib/main.dart is not UTF-8 text, and tapir edits only UTF-8 files. Nothing was written.',
    )
  })
})
