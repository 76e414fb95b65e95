/** The version of the tapir Dart package `tapir install` asks for: the 1.x line speaks the
 *  ext.tapir.* protocol this CLI drives. */
export const TAPIR_CONSTRAINT = '^1.0.0'

/** Every line `tapir install` adds ends with one of these, so `tapir uninstall` removes exactly
 *  those lines, even after the file was edited, and never one the user wrote. */
export const DART_MARK = '// added by tapir install'
export const YAML_MARK = '# added by tapir install'

/** On the `{` of an arrow body that install turned into a block, with how the arrow read, so
 *  uninstall turns it back: `=> expr` on one line, or `=>` then the expression on the next. */
export const ARROW_MARKS = {sameLine: '// tapir install: block was =>', nextLine: '// tapir install: block was =>, new line'} as const

export const TAPIR_URI = 'package:tapir/tapir.dart'
export const FOUNDATION_URI = 'package:flutter/foundation.dart'
export const importLine = (uri: string): string => `import '${uri}';`
export const ENSURE_INITIALIZED = 'WidgetsFlutterBinding.ensureInitialized();'

/** The guarded call, one line each: release builds never carry tapir. */
export const GUARD_LINES = ['if (!kReleaseMode) {', '  TapirPlugin.install();', '}'] as const
