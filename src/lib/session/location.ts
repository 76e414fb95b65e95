import {createHash} from 'node:crypto'
import {userInfo} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {TapirError, UsageError} from '../errors.js'
import {findProjectRoot} from './project-root.js'

export interface SessionLocation {
  /** The session file to read and write. */
  path: string
  /** True when the caller named it (`--state` or TAPIR_STATE_FILE): no fallbacks, no ownership check. */
  named: boolean
  projectRoot: string
  /** Where the shared "last started" pointer lives, and older tools' files to read as a fallback
   *  (none when the session is named). */
  pointer: string | undefined
  fallbacks: string[]
  /** The folders tapir creates for the session, outermost first: each must be the user's own and
   *  private (a named file's folder only must not let others replace it). */
  folders: string[]
}

/** The user's home: HOME (USERPROFILE on Windows), else the passwd entry. Never a shared folder. */
export function homeDir(env: NodeJS.ProcessEnv): string {
  const fromEnv = env.HOME || env.USERPROFILE
  if (fromEnv) return fromEnv
  try {
    const {homedir} = userInfo()
    if (homedir) return homedir
  } catch {
    // no passwd entry (a container run with --user N)
  }
  throw new TapirError(
    (words) =>
      `Cannot tell where your home folder is (HOME is not set and the user has no passwd entry). Set HOME, or ${words.only('pass --state=<file> (or TAPIR_STATE_FILE)', 'set TAPIR_STATE_FILE')} to name the session file.`,
    'local',
  )
}

function perProject(home: string, tool: string, digest: string): string {
  return join(home, `.${tool}`, 'sessions', digest, 'state.json')
}

/** Resolution order: --state, then TAPIR_STATE_FILE, then the per-project file under ~/.tapir. */
export function locateSession(options: {stateFlag?: string; env: NodeJS.ProcessEnv; cwd: string}): SessionLocation {
  // An empty --state (`--state=` with a variable that was not set) is a mistake, not "none given".
  if (options.stateFlag === '')
    throw new UsageError("--state needs a file: --state=<session file>, or leave it out for this project's session.")
  const projectRoot = findProjectRoot(options.cwd)
  const named = options.stateFlag || options.env.TAPIR_STATE_FILE
  if (named) {
    const path = resolve(options.cwd, named)
    return {path, named: true, projectRoot, pointer: undefined, fallbacks: [], folders: [dirname(path)]}
  }
  const home = homeDir(options.env)
  const digest = createHash('sha256').update(projectRoot, 'utf8').digest('hex').slice(0, 12)
  const path = perProject(home, 'tapir', digest)
  return {
    path,
    named: false,
    projectRoot,
    pointer: join(home, '.tapir', 'state.json'),
    fallbacks: ['dowel', 'artisan'].flatMap((tool) => [perProject(home, tool, digest), join(home, `.${tool}`, 'state.json')]),
    folders: [join(home, '.tapir'), join(home, '.tapir', 'sessions'), dirname(path)],
  }
}
