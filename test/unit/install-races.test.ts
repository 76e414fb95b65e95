import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import type * as Install from '../../src/lib/install/install.js'
import {tempDir} from '../helpers/cli.js'
import {FileEditor} from '../helpers/file-editor.js'
import {INSTALL_FIXTURES} from '../helpers/golden.js'

// Another file of the unit tier mocks the writer: install.js is loaded afresh with the real one.
let install: typeof Install
let editor: FileEditor
let project: {path: string; remove(): void}
beforeAll(async () => {
  vi.resetModules()
  install = await import('../../src/lib/install/install.js')
  editor = new FileEditor()
  project = tempDir('tapir-install-race-')
  mkdirSync(join(project.path, 'lib'))
})
afterAll(() => {
  editor.close()
  project.remove()
})

const RUNS = 50
const fixture = (state: 'before' | 'after', file: string) => readFileSync(join(INSTALL_FIXTURES, 'counter', state, file), 'utf8')
const temp = (file: string) => `^\\.${file.replace('.', '\\.')}\\.[0-9a-f]{16}\\.tmp$`

describe('an edit made to lib/main.dart the moment tapir writes is never lost', () => {
  const cases = [
    {command: 'tapir install', from: 'before', to: 'after', trigger: 'pubspec.yaml', atomic: false},
    {command: 'tapir install', from: 'before', to: 'after', trigger: 'main.dart', atomic: false},
    {command: 'tapir install', from: 'before', to: 'after', trigger: 'main.dart', atomic: true},
    {command: 'tapir uninstall', from: 'after', to: 'before', trigger: 'pubspec.yaml', atomic: false},
    {command: 'tapir uninstall', from: 'after', to: 'before', trigger: 'main.dart', atomic: true},
  ] as const
  for (const {command, from, to, trigger, atomic} of cases) {
    it(`${command}, edited ${atomic ? 'by an atomic save' : 'in place'} when ${trigger}'s temp file appears: ${RUNS} of ${RUNS}`, async () => {
      const main = join(project.path, 'lib', 'main.dart')
      const pubspec = join(project.path, 'pubspec.yaml')
      for (let run = 0; run < RUNS; run++) {
        writeFileSync(pubspec, fixture(from, 'pubspec.yaml'))
        writeFileSync(join(project.path, 'lib', 'main.dart'), fixture(from, 'lib/main.dart'))
        const plan = await (command === 'tapir install'
          ? install.planInstall({cwd: project.path, force: false})
          : install.planUninstall({cwd: project.path}))
        const edit = `${fixture(from, 'lib/main.dart')}// run ${run}: the user's edit\n`
        const dir = trigger === 'main.dart' ? join(project.path, 'lib') : project.path
        await editor.arm({dir, pattern: temp(trigger), target: main, text: edit, atomic})
        let error: unknown
        try {
          install.applyPlan(plan, command)
        } catch (caught) {
          error = caught
        }
        await editor.edited()
        expect(readFileSync(main, 'utf8'), `run ${run}`).toBe(edit)
        if (error === undefined) expect(readFileSync(pubspec, 'utf8')).toBe(fixture(to, 'pubspec.yaml'))
        else {
          expect(String(error)).toContain(`lib/main.dart changed while tapir worked: run ${command} again. Nothing was written.`)
          expect(readFileSync(pubspec, 'utf8')).toBe(fixture(from, 'pubspec.yaml'))
        }
      }
    })
  }
})
