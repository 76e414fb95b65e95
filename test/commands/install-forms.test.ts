import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {tempDir} from '../helpers/cli.js'
import {copyProject, expectGolden, INSTALL_FIXTURES} from '../helpers/golden.js'
import {runCommand} from '../helpers/run-command.js'

let project: {path: string; remove(): void}
beforeEach(() => {
  project = tempDir('tapir-install-')
})
afterEach(() => project.remove())

const fixture = (name: string, state: 'before' | 'after') => join(INSTALL_FIXTURES, name, state)

/** Each fixture through the commands in this process (the spawned CLI prints the same:
 *  test/e2e/in-process-runner.test.ts; the counter app and the refusals are run spawned in
 *  test/e2e/install.test.ts). */
describe('tapir install and uninstall on fixture projects', () => {
  const FORMS: Array<[string, string]> = [
    ['async-main', 'Future<void> main() async, binding already initialized, a comment above runApp'],
    ['arrow', 'void main() => runApp(…)'],
    ['arrow-wrapped', 'an async arrow body on the next line, a prefixed import'],
    ['zoned', 'runApp inside runZonedGuarded, foundation imported'],
    ['zoned-arrow', 'runZonedGuarded(() => runApp(…)), foundation imported with show'],
    ['odd-pubspec', 'a pubspec with comments, blank lines, flow maps and four-space indents'],
    ['crlf', 'CRLF line endings in both files'],
    ['pubspec-has-tapir', 'tapir already under dependencies, written by hand'],
  ]
  for (const [name, what] of FORMS) {
    it(`${name} (${what}): install gives the golden files, a second run changes no byte, uninstall restores every byte`, async () => {
      copyProject(name, project.path)
      const first = await runCommand(['install', `--project=${project.path}`])
      expect(first).toMatchObject({exitCode: 0, stderr: ''})
      expect(first.stdout).toContain('Next:\n  flutter pub get\n  tapir start --device=<id>\n  tapir mcp:install')
      expectGolden(project.path, fixture(name, 'after'))

      const second = await runCommand(['install', `--project=${project.path}`])
      expect(second).toMatchObject({exitCode: 0, stderr: ''})
      expect(second.stdout).toMatch(/✓ Already installed: nothing changed\.$/)
      expectGolden(project.path, fixture(name, 'after'))

      const undone = await runCommand(['uninstall', `--project=${project.path}`])
      expect(undone).toMatchObject({exitCode: 0, stderr: ''})
      expectGolden(project.path, fixture(name, 'before'))
    })
  }
})
