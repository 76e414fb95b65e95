import {describe, expect, it} from 'vitest'
import {ManualSteps} from '../../src/lib/install/manual-steps.js'
import {patchMain} from '../../src/lib/install/patch-main.js'
import {unpatchMain} from '../../src/lib/install/unpatch-main.js'

const MARK = '// added by tapir install'
const GUARD = (indent: string) => [`${indent}if (!kReleaseMode) {`, `${indent}  TapirPlugin.install(); ${MARK}`, `${indent}}`]
const IMPORTS = [
  `import 'package:flutter/foundation.dart'; ${MARK}`,
  "import 'package:flutter/material.dart';",
  `import 'package:tapir/tapir.dart'; ${MARK}`,
]

async function patched(source: string[], options = {force: false}): Promise<string[]> {
  const result = await patchMain(source.join('\n') + '\n', 'lib/main.dart', options)
  if (result.kind !== 'patched') throw new Error(`not patched: ${result.kind}`)
  expect((await unpatchMain(result.text, 'lib/main.dart')).text).toBe(source.join('\n') + '\n')
  return result.text.trimEnd().split('\n')
}

async function refusal(source: string[]): Promise<string> {
  const error = await patchMain(source.join('\n') + '\n', 'lib/main.dart', {force: false}).then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(ManualSteps)
  return (error as ManualSteps).reason
}

describe('patching main() with the Dart parser', () => {
  it('main() with no return type and with arguments', async () => {
    for (const signature of ['main()', 'void main(List<String> args)']) {
      expect(await patched(["import 'package:flutter/material.dart';", '', `${signature} {`, '  runApp(const App());', '}'])).toEqual([
        ...IMPORTS,
        '',
        `${signature} {`,
        `  WidgetsFlutterBinding.ensureInitialized(); ${MARK}`,
        ...GUARD('  '),
        '  runApp(const App());',
        '}',
      ])
    }
  })

  it('a runApp inside an if goes after the binding, before the whole if; a prefixed runApp counts', async () => {
    expect(
      await patched([
        "import 'package:flutter/material.dart' as m;",
        '',
        'void main() {',
        '  if (flavor == "dev") {',
        '    m.runApp(const DevApp());',
        '  } else {',
        '    m.runApp(const App());',
        '  }',
        '}',
      ]),
    ).toEqual([
      `import 'package:flutter/foundation.dart'; ${MARK}`,
      "import 'package:flutter/material.dart' as m;",
      `import 'package:tapir/tapir.dart'; ${MARK}`,
      '',
      'void main() {',
      `  WidgetsFlutterBinding.ensureInitialized(); ${MARK}`,
      ...GUARD('  '),
      '  if (flavor == "dev") {',
      '    m.runApp(const DevApp());',
      '  } else {',
      '    m.runApp(const App());',
      '  }',
      '}',
    ])
  })

  it('kReleaseMode hidden or behind a prefix is not in scope; ensureInitialized after runApp does not count', async () => {
    const lines = await patched([
      "import 'package:flutter/foundation.dart' hide kReleaseMode;",
      "import 'package:flutter/foundation.dart' as foundation;",
      "import 'package:flutter/material.dart';",
      '',
      'void main() {',
      '  runApp(const App());',
      '  WidgetsFlutterBinding.ensureInitialized();',
      '}',
    ])
    expect(lines.filter((line) => line.includes(MARK))).toEqual([
      `import 'package:flutter/foundation.dart'; ${MARK}`,
      `import 'package:tapir/tapir.dart'; ${MARK}`,
      `  WidgetsFlutterBinding.ensureInitialized(); ${MARK}`,
      `    TapirPlugin.install(); ${MARK}`,
    ])
  })

  it('TapirPlugin.install() in a comment or a string is not a call, nor is runApp( in a string', async () => {
    const source = [
      "import 'package:flutter/material.dart';",
      '',
      'void main() {',
      '  // TapirPlugin.install();',
      "  debugPrint('TapirPlugin.install() and runApp( are text here');",
      '  runApp(const App());',
      '}',
    ]
    const lines = await patched(source)
    expect(lines.indexOf(`    TapirPlugin.install(); ${MARK}`)).toBe(lines.indexOf('  runApp(const App());') - 2)
    expect(await refusal(['void main() {', "  print('runApp(');", '}'])).toBe('main() has no runApp( call')
  })

  it('imports go in alphabetical order, below a header comment, above the comment lines of the import they precede', async () => {
    const lines = await patched([
      '// Copyright 2025 Example.',
      "import 'package:analytics/analytics.dart';",
      '// ignore: depend_on_referenced_packages',
      "import 'package:flutter/material.dart';",
      '',
      'void main() {',
      '  runApp(const App());',
      '}',
    ])
    expect(lines.slice(0, 6)).toEqual([
      '// Copyright 2025 Example.',
      "import 'package:analytics/analytics.dart';",
      `import 'package:flutter/foundation.dart'; ${MARK}`,
      '// ignore: depend_on_referenced_packages',
      "import 'package:flutter/material.dart';",
      `import 'package:tapir/tapir.dart'; ${MARK}`,
    ])
    const header = await patched([
      '// Copyright 2025 Example.',
      "import 'package:flutter/material.dart';",
      '',
      'void main() => runApp(App());',
    ])
    expect(header.slice(0, 3)).toEqual([
      '// Copyright 2025 Example.',
      `import 'package:flutter/foundation.dart'; ${MARK}`,
      "import 'package:flutter/material.dart';",
    ])
  })

  it('a call already present anywhere in main() counts as installed, even in a closure', async () => {
    const source = [
      'void main() {',
      '  runZonedGuarded(() {',
      '    TapirPlugin.install();',
      '    runApp(const App());',
      '  }, (e, s) {});',
      '}',
    ]
    expect(await patchMain(source.join('\n'), 'lib/main.dart', {force: false})).toEqual({kind: 'installed', line: 3})
  })

  it('a main() that only calls DuskPlugin.install() is Dusk, unless forced', async () => {
    const source = [
      "import 'package:flutter/material.dart';",
      '',
      'void main() {',
      '  DuskPlugin.install();',
      '  runApp(const App());',
      '}',
    ]
    expect(await patchMain(source.join('\n'), 'lib/main.dart', {force: false})).toEqual({kind: 'dusk', line: 4})
    expect(await patched(source, {force: true})).toContain('  DuskPlugin.install();')
  })

  it('a `part of` file and a main in a class are not patched', async () => {
    expect(await refusal(["part of 'app.dart';", '', 'void main() {', '  runApp(const App());', '}'])).toBe(
      'it is a part of another library (`part of`)',
    )
    expect(await refusal(['class Tool {', '  void main() {', '    runApp(const App());', '  }', '}'])).toBe('it has no top-level main()')
  })
})

describe('uninstall after the file was edited', () => {
  const installed = async (source: string[]) => {
    const result = await patchMain(source.join('\n') + '\n', 'lib/main.dart', {force: false})
    if (result.kind !== 'patched') throw new Error(result.kind)
    return result.text
  }

  it('a statement added to the block made of `=>` keeps the block; only the mark and the added lines go', async () => {
    const text = await installed(["import 'package:flutter/material.dart';", '', 'void main() => runApp(const App());'])
    const edited = text.replace('  runApp(const App());', '  debugPrint("starting");\n  runApp(const App());')
    const undone = await unpatchMain(edited, 'lib/main.dart')
    expect(undone.text).toBe(
      ["import 'package:flutter/material.dart';", '', 'void main() {', '  debugPrint("starting");', '  runApp(const App());', '}', ''].join(
        '\n',
      ),
    )
    expect(undone.kept).toEqual(['the block body of the function on line 5 (it holds more than the call it was made for)'])
  })

  it('a line the user put inside the guard stays with its if; dart format-ed `=>` blocks still turn back', async () => {
    const text = await installed(["import 'package:flutter/material.dart';", '', 'void main() {', '  runApp(const App());', '}'])
    const edited = text.replace(
      `    TapirPlugin.install(); ${MARK}\n`,
      `    TapirPlugin.install(); ${MARK}\n    debugPaintSizeEnabled = true;\n`,
    )
    expect((await unpatchMain(edited, 'lib/main.dart')).text).toBe(
      [
        "import 'package:flutter/material.dart';",
        '',
        'void main() {',
        '  if (!kReleaseMode) {',
        '    debugPaintSizeEnabled = true;',
        '  }',
        '  runApp(const App());',
        '}',
        '',
      ].join('\n'),
    )
    const arrow = await installed(['void main() => runApp(App());'])
    const formatted = arrow.replace('  runApp(App());', '  runApp(\n    App(),\n  );')
    expect((await unpatchMain(formatted, 'lib/main.dart')).text).toBe('void main() => runApp(\n    App(),\n  );\n')
  })

  it('a mark after a line tapir does not add: refused, nothing changed', async () => {
    const error = await unpatchMain(`void main() {\n  runApp(const App()); ${MARK}\n}\n`, 'lib/main.dart').catch((caught: Error) => caught)
    expect((error as Error).message).toBe(
      `Cannot undo tapir install in lib/main.dart safely: the mark on line 2 follows something tapir install does not add. Nothing was written; remove the lines that end with \`${MARK}\` by hand.`,
    )
  })
})
