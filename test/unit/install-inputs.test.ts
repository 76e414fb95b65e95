import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeAll, beforeEach, describe, expect, it, vi} from 'vitest'
import type * as Install from '../../src/lib/install/install.js'
import {tempDir} from '../helpers/cli.js'
import {copyProject, INSTALL_FIXTURES} from '../helpers/golden.js'

// Another file of the unit tier mocks the writer: install.js is loaded afresh with the real one.
let install: typeof Install
beforeAll(async () => {
  vi.resetModules()
  install = await import('../../src/lib/install/install.js')
})

let project: {path: string; remove(): void}
beforeEach(() => {
  project = tempDir('tapir-install-inputs-')
  copyProject('counter', project.path)
})
afterEach(() => project.remove())

const file = (name: string) => join(project.path, name)
const counter = (name: string) => readFileSync(join(INSTALL_FIXTURES, 'counter', 'before', name))

/** The one-line local failure (exit 1) planning gives, with nothing written. */
async function refusal(plan: Promise<unknown>): Promise<string> {
  const error = await plan.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  // A TapirError of the freshly loaded modules: its kind is what decides exit 1.
  expect(error).toMatchObject({kind: 'local'})
  const {message} = error as Error
  expect(message).not.toContain('\n')
  return message
}

describe('what install and uninstall take from a user’s editor', () => {
  it('a main.dart that starts with a BOM is patched after it, and uninstall gives back every byte', async () => {
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), counter('lib/main.dart')])
    writeFileSync(file('lib/main.dart'), original)
    install.applyPlan(await install.planInstall({cwd: project.path, force: false}), 'tapir install')
    const patched = readFileSync(file('lib/main.dart'))
    expect(patched.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]))
    expect(patched.subarray(3).toString()).toBe(readFileSync(join(INSTALL_FIXTURES, 'counter', 'after', 'lib/main.dart'), 'utf8'))
    install.applyPlan(await install.planUninstall({cwd: project.path}), 'tapir uninstall')
    expect(readFileSync(file('lib/main.dart')).equals(original)).toBe(true)
    expect(readFileSync(file('pubspec.yaml')).equals(counter('pubspec.yaml'))).toBe(true)
  })

  it('lone CR line endings are refused with the reason', async () => {
    writeFileSync(file('lib/main.dart'), counter('lib/main.dart').toString().replaceAll('\n', '\r'))
    expect(await refusal(install.planInstall({cwd: project.path, force: false}))).toBe(
      'lib/main.dart ends its lines with a lone CR (classic Mac OS), which tapir does not edit: convert them to LF or CRLF, then run tapir install again. Nothing was written.',
    )
  })

  it('flutter reached through a YAML merge key is refused: pub does not read merge keys', async () => {
    const pubspec = counter('pubspec.yaml')
      .toString()
      .replace(/^dependencies:\n {2}flutter:\n {4}sdk: flutter\n/m, 'dependencies:\n  <<: *base\n')
    writeFileSync(file('pubspec.yaml'), `base: &base\n  flutter:\n    sdk: flutter\n${pubspec}`)
    expect(await refusal(install.planInstall({cwd: project.path, force: false}))).toMatch(
      /^pubspec\.yaml: its dependencies take flutter from a YAML merge key \(<<\), which pub does not read/,
    )
  })

  it('a YAML alias bomb is one line, not an unexpected error', async () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]']
    for (let level = 1; level < 9; level++)
      levels.push(
        `l${level}: &l${level} [${Array(9)
          .fill(level === 1 ? '*a' : `*l${level - 1}`)
          .join(', ')}]`,
      )
    writeFileSync(file('pubspec.yaml'), `${levels.join('\n')}\n${counter('pubspec.yaml').toString()}`)
    for (const plan of [() => install.planInstall({cwd: project.path, force: false}), () => install.planUninstall({cwd: project.path})])
      expect(await refusal(plan())).toMatch(/^pubspec\.yaml: it is not a pubspec tapir can read \(Excessive alias count/)
    expect(readFileSync(file('lib/main.dart')).equals(counter('lib/main.dart'))).toBe(true)
  })
})
