import {join} from 'node:path'
import {TapirError} from '../errors.js'
import {isExecutable, pathFolders} from '../executable.js'

const NAMES = process.platform === 'win32' ? ['flutter.bat', 'flutter.exe'] : ['flutter']

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
  for (const folder of pathFolders(env)) {
    for (const name of NAMES) if (isExecutable(join(folder, name))) return join(folder, name)
  }
  throw new TapirError(
    'No flutter on PATH. Install Flutter (https://docs.flutter.dev/get-started/install) and put its bin folder on PATH, or set TAPIR_FLUTTER_BIN to the flutter executable.',
    'local',
  )
}
