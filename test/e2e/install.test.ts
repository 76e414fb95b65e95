import {chmodSync, lstatSync, mkdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {tapir, tempDir} from '../helpers/cli.js'
import {copyProject, expectGolden, INSTALL_FIXTURES} from '../helpers/golden.js'

let project: {path: string; remove(): void}
beforeEach(() => {
  project = tempDir('tapir-install-')
})
afterEach(() => project.remove())

const read = (file: string) => readFileSync(join(project.path, file), 'utf8')
const fixture = (name: string, state: 'before' | 'after') => join(INSTALL_FIXTURES, name, state)

describe('tapir install and uninstall, spawned', () => {
  it('the flutter create app, from its lib folder: the golden files and the next steps; tapir:install again changes no byte; uninstall restores every byte', async () => {
    copyProject('counter', project.path)
    const first = await tapir(['install'], {cwd: join(project.path, 'lib')})
    expect(first).toMatchObject({exitCode: 0, stderr: ''})
    expect(first.stdout).toMatch(/^--- a\/pubspec\.yaml\n/)
    expect(first.stdout.split('\n').slice(-6)).toEqual([
      '✓ pubspec.yaml: added tapir ^1.0.0 under dependencies',
      '✓ lib/main.dart: added import of package:flutter/foundation.dart and package:tapir/tapir.dart; WidgetsFlutterBinding.ensureInitialized(); TapirPlugin.install() behind if (!kReleaseMode), before runApp(',
      'Next:',
      '  flutter pub get',
      '  tapir start --device=<id>',
      '  tapir mcp:install',
    ])
    expectGolden(project.path, fixture('counter', 'after'))

    const second = await tapir(['tapir:install', `--project=${project.path}`])
    expect(second).toMatchObject({exitCode: 0, stderr: ''})
    expect(second.stdout).toMatch(/✓ Already installed: nothing changed\.$/)
    expectGolden(project.path, fixture('counter', 'after'))

    const undone = await tapir(['uninstall'], {cwd: project.path})
    expect(undone).toMatchObject({exitCode: 0, stderr: ''})
    expect(undone.stdout.split('\n').slice(-2)).toEqual([
      '✓ pubspec.yaml: removed tapir from dependencies',
      '✓ lib/main.dart: removed import of package:flutter/foundation.dart; import of package:tapir/tapir.dart; WidgetsFlutterBinding.ensureInitialized(); TapirPlugin.install()',
    ])
    expectGolden(project.path, fixture('counter', 'before'))
  })
})

describe('tapir install, what it leaves alone', () => {
  it('an installed project: "already installed", no byte changed; uninstall leaves lines it did not add', async () => {
    copyProject('installed', project.path)
    const result = await tapir(['install', `--project=${project.path}`])
    expect(result).toMatchObject({exitCode: 0, stderr: ''})
    expect(result.stdout).toBe(
      [
        '✓ pubspec.yaml already lists tapir (^1.0.2) under dependencies',
        '✓ lib/main.dart already calls TapirPlugin.install() in main() (line 9)',
        '✓ Already installed: nothing changed.',
      ].join('\n'),
    )
    expectGolden(project.path, fixture('installed', 'before'))
    const undone = await tapir(['uninstall', `--project=${project.path}`])
    expect(undone).toMatchObject({exitCode: 0, stderr: ''})
    expect(undone.stdout).toBe(
      [
        '✓ pubspec.yaml lists tapir (^1.0.2) under dependencies, but not on a line tapir install added: left as it is',
        '✓ lib/main.dart calls TapirPlugin.install() (line 9), but not on a line tapir install added: left as it is',
        '✓ Nothing to remove: nothing changed.',
      ].join('\n'),
    )
    expectGolden(project.path, fixture('installed', 'before'))
  })

  it('a Dusk app: says DuskPlugin.install() is there and exits 1; --force installs tapir beside it', async () => {
    copyProject('dusk', project.path)
    const refused = await tapir(['install', `--project=${project.path}`])
    expect(refused).toMatchObject({exitCode: 1, stdout: ''})
    expect(refused.stderr).toBe(
      '✗ lib/main.dart calls DuskPlugin.install() (line 10): the app is set up for the older Dusk package. Run tapir install --force to add tapir beside it. Nothing was written.',
    )
    expectGolden(project.path, fixture('dusk', 'before'))
    const forced = await tapir(['install', '--force', `--project=${project.path}`])
    expect(forced).toMatchObject({exitCode: 0, stderr: ''})
    expectGolden(project.path, fixture('dusk', 'after'))
    expect(read('lib/main.dart')).toContain('DuskPlugin.install();')
    await tapir(['uninstall', `--project=${project.path}`])
    expectGolden(project.path, fixture('dusk', 'before'))
  })

  const UNPATCHABLE: Array<[string, string]> = [
    ['no-run-app', 'main() has no runApp( call'],
    ['no-main', 'it has no top-level main()'],
    ['parse-error', 'it does not parse as Dart (line 4, column 21)'],
    ['shared-line', 'runApp( shares its line with other code: format the file (dart format), then run tapir install again'],
    ['inside-expression', 'runApp( is part of a larger `=>` expression: give that function a block body, then run tapir install again'],
  ]
  for (const [name, reason] of UNPATCHABLE) {
    it(`an unpatchable main.dart (${name}): exit 1, the lines to add by hand, neither file written`, async () => {
      copyProject('counter', project.path)
      const main = readFileSync(join(INSTALL_FIXTURES, 'unpatchable', `${name}.dart`))
      writeFileSync(join(project.path, 'lib', 'main.dart'), main)
      const pubspec = read('pubspec.yaml')
      const result = await tapir(['install'], {cwd: project.path})
      expect(result).toMatchObject({exitCode: 1, stdout: ''})
      const lines = result.stderr.trimEnd().split('\n')
      expect(lines[0]).toBe(`✗ Cannot patch lib/main.dart safely: ${reason}. Nothing was written.`)
      expect(lines.slice(1)).toEqual(
        expect.arrayContaining([
          'Add these lines by hand:',
          "    import 'package:tapir/tapir.dart';",
          '  in main(), before runApp(:',
          '    if (!kReleaseMode) {',
          '      TapirPlugin.install();',
          '    }',
          '  in pubspec.yaml, under dependencies:',
          '    tapir: ^1.0.0',
        ]),
      )
      expect(readFileSync(join(project.path, 'lib', 'main.dart'))).toEqual(main)
      expect(read('pubspec.yaml')).toBe(pubspec)
    })
  }

  it('--dry-run prints the unified diff of both files and writes nothing, for install and uninstall', async () => {
    copyProject('counter', project.path)
    const stamp = () => ['pubspec.yaml', 'lib/main.dart'].map((file) => statSync(join(project.path, file)).mtimeMs)
    const before = stamp()
    const dry = await tapir(['install', '--dry-run'], {cwd: project.path})
    expect(dry).toMatchObject({exitCode: 0, stderr: ''})
    expect(dry.stdout).toContain(['--- a/pubspec.yaml', '+++ b/pubspec.yaml', '@@ -17,6 +17,7 @@'].join('\n') + '\n')
    expect(dry.stdout).toContain('+  tapir: ^1.0.0 # added by tapir install\n')
    expect(dry.stdout).toContain(['--- a/lib/main.dart', '+++ b/lib/main.dart', '@@ -1,6 +1,12 @@'].join('\n'))
    expect(dry.stdout).toContain('+    TapirPlugin.install(); // added by tapir install\n')
    expect(dry.stdout).toMatch(/\nDry run: nothing was written\.$/)
    expect(dry.stdout).not.toContain('Next:')
    expectGolden(project.path, fixture('counter', 'before'))
    expect(stamp()).toEqual(before)

    await tapir(['install'], {cwd: project.path})
    const installed = stamp()
    const dryUndo = await tapir(['uninstall', '--dry-run'], {cwd: project.path})
    expect(dryUndo).toMatchObject({exitCode: 0, stderr: ''})
    expect(dryUndo.stdout).toContain('-  tapir: ^1.0.0 # added by tapir install\n')
    expect(dryUndo.stdout).toContain('lib/main.dart: would remove ')
    expectGolden(project.path, fixture('counter', 'after'))
    expect(stamp()).toEqual(installed)
  })

  it('--json prints the changes, their diffs and the next steps', async () => {
    copyProject('counter', project.path)
    const result = await tapir(['install', '--json'], {cwd: project.path})
    expect(result).toMatchObject({exitCode: 0, stderr: ''})
    const json = JSON.parse(result.stdout)
    expect(json).toMatchObject({
      project: project.path,
      dryRun: false,
      written: true,
      unchanged: [],
      next: ['flutter pub get', 'tapir start --device=<id>', 'tapir mcp:install'],
    })
    expect(json.changes.map((change: {file: string}) => change.file)).toEqual(['pubspec.yaml', 'lib/main.dart'])
    expect(json.changes[0]).toMatchObject({added: 'tapir ^1.0.0 under dependencies'})
    expect(json.changes[1].diff).toMatch(/^--- a\/lib\/main\.dart\n\+\+\+ b\/lib\/main\.dart\n@@/)
  })
})

describe('files tapir install will not write', () => {
  it('a read-only main.dart: refused in one line, and pubspec.yaml is not written either', async () => {
    copyProject('counter', project.path)
    chmodSync(join(project.path, 'lib', 'main.dart'), 0o444)
    const result = await tapir(['install'], {cwd: project.path})
    expect(result).toMatchObject({exitCode: 1, stdout: ''})
    expect(result.stderr).toBe(
      '✗ Refusing to write lib/main.dart: it is read-only. Make it writable (chmod u+w lib/main.dart), then run tapir install again. Nothing was written.',
    )
    expectGolden(project.path, fixture('counter', 'before'))
    expect(statSync(join(project.path, 'lib', 'main.dart')).mode & 0o777).toBe(0o444)
  })

  it('a main.dart linked from outside the project: refused, the file outside untouched', async () => {
    copyProject('counter', project.path)
    const outside = tempDir('tapir-outside-')
    try {
      const target = join(outside.path, 'main.dart')
      const link = join(project.path, 'lib', 'main.dart')
      renameSync(link, target)
      symlinkSync(target, link)
      const result = await tapir(['install'], {cwd: project.path})
      expect(result).toMatchObject({exitCode: 1, stdout: ''})
      expect(result.stderr).toBe(
        `✗ Refusing to write lib/main.dart: it leads to ${target}, outside the project (through a symbolic link). Nothing was written.`,
      )
      expect(readFileSync(target, 'utf8')).toBe(readFileSync(join(fixture('counter', 'before'), 'lib', 'main.dart'), 'utf8'))
      expect(read('pubspec.yaml')).toBe(readFileSync(join(fixture('counter', 'before'), 'pubspec.yaml'), 'utf8'))
    } finally {
      outside.remove()
    }
  })

  it('a main.dart linked to a file inside the project is written through the link', async () => {
    copyProject('counter', project.path)
    renameSync(join(project.path, 'lib', 'main.dart'), join(project.path, 'lib', 'app_main.dart'))
    symlinkSync('app_main.dart', join(project.path, 'lib', 'main.dart'))
    const result = await tapir(['install'], {cwd: project.path})
    expect(result).toMatchObject({exitCode: 0, stderr: ''})
    expect(lstatSync(join(project.path, 'lib', 'main.dart')).isSymbolicLink()).toBe(true)
    expect(read('lib/app_main.dart')).toBe(readFileSync(join(fixture('counter', 'after'), 'lib', 'main.dart'), 'utf8'))
  })

  it('a folder with no pubspec.yaml, a pubspec without flutter, a missing main.dart, a --target outside: one line, exit 1', async () => {
    mkdirSync(join(project.path, 'empty'))
    const none = await tapir(['install'], {cwd: join(project.path, 'empty')})
    expect(none).toMatchObject({exitCode: 1, stdout: ''})
    expect(none.stderr).toBe(
      `✗ No pubspec.yaml in ${join(project.path, 'empty')} or any folder above it: run this in your Flutter app's folder, or pass --project=<dir>.`,
    )
    writeFileSync(join(project.path, 'pubspec.yaml'), 'name: tool\ndependencies:\n  args: ^2.0.0\n')
    mkdirSync(join(project.path, 'lib'))
    writeFileSync(join(project.path, 'lib', 'main.dart'), 'void main() {}\n')
    const dart = await tapir(['install'], {cwd: project.path})
    expect(dart.stderr).toBe(
      "✗ pubspec.yaml does not list flutter under dependencies: tapir install sets up a Flutter app. Run it in the app's folder, or pass --project=<the app's folder>.",
    )
    expect(dart.exitCode).toBe(1)
    copyProject('counter', project.path)
    const missing = await tapir(['install', '--target=lib/main_dev.dart'], {cwd: project.path})
    expect(missing.stderr).toBe(
      '✗ lib/main_dev.dart not found: pass --target=<file> with the file that holds main(), as flutter run -t takes it.',
    )
    const outside = await tapir(['install', '--target=../main.dart'], {cwd: project.path})
    expect(outside.stderr).toMatch(/^✗ --target=\.\.\/main\.dart: .* is outside the project /)
    expect(outside.exitCode).toBe(1)
    expectGolden(project.path, fixture('counter', 'before'))
  })
})

describe("tapir doctor's project line", () => {
  it('names what is missing and `tapir install` as the fix (exit 1), then ✓ once installed', async () => {
    copyProject('counter', project.path)
    const state = join(project.path, 'no-session.json')
    const before = await tapir(['doctor', '--state', state], {cwd: join(project.path, 'lib')})
    expect(before.exitCode).toBe(1)
    expect(before.stdout.split('\n')[0]).toBe(
      `✗ project: ${project.path}: pubspec.yaml does not list tapir, and lib/main.dart does not call TapirPlugin.install(): run \`tapir install\``,
    )
    await tapir(['install'], {cwd: project.path})
    const after = await tapir(['doctor', '--state', state], {cwd: project.path})
    expect(after.stdout.split('\n')[0]).toBe(
      `✓ project: ${project.path}: tapir ^1.0.0 under dependencies in pubspec.yaml, TapirPlugin.install() in lib/main.dart (line 8)`,
    )
    const json = await tapir(['doctor', '--json', '--state', state], {cwd: project.path})
    expect(JSON.parse(json.stdout).checks[0]).toMatchObject({name: 'project', ok: true})
  })

  it('a main.dart without the call is only a ⚠: another entry point may hold it', async () => {
    copyProject('pubspec-has-tapir', project.path)
    const result = await tapir(['doctor', '--state', join(project.path, 'no-session.json')], {cwd: project.path})
    expect(result.stdout.split('\n')[0]).toBe(
      `⚠ project: ${project.path}: lib/main.dart does not call TapirPlugin.install(): run \`tapir install\` (with --target=<file> for another entry point)`,
    )
  })
})
