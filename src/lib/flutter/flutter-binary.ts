import {accessSync, constants, statSync} from 'node:fs'
import {delimiter, join} from 'node:path'
import {TapirError} from '../errors.js'

const NAMES = process.platform === 'win32' ? ['flutter.bat', 'flutter.exe'] : ['flutter']

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** The flutter tool: TAPIR_FLUTTER_BIN when set, else the first `flutter` on PATH. */
export function findFlutter(env: NodeJS.ProcessEnv): string {
  const named = env.TAPIR_FLUTTER_BIN
  if (named) {
    if (isExecutable(named)) return named
    throw new TapirError(
      `TAPIR_FLUTTER_BIN names ${named}, which is not an executable file; point it at the flutter tool (…/flutter/bin/flutter).`,
      'local',
    )
  }
  for (const folder of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of NAMES) if (isExecutable(join(folder, name))) return join(folder, name)
  }
  throw new TapirError(
    'No flutter on PATH. Install Flutter (https://docs.flutter.dev/get-started/install) and put its bin folder on PATH, or set TAPIR_FLUTTER_BIN to the flutter executable.',
    'local',
  )
}
