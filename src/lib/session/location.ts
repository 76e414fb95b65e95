import {createHash} from 'node:crypto'
import {join, resolve} from 'node:path'
import {findProjectRoot} from './project-root.js'

export interface SessionLocation {
  /** The session file to read and write. */
  path: string
  /** True when the caller named it (`--state` or TAPIR_STATE_FILE): no fallbacks, no ownership check. */
  named: boolean
  projectRoot: string
  /** Where the shared "last started" pointer lives, and older tools' files to read as a fallback. */
  pointer: string
  fallbacks: string[]
}

export function homeDir(env: NodeJS.ProcessEnv): string {
  return env.HOME || env.USERPROFILE || '/tmp'
}

function perProject(home: string, tool: string, digest: string): string {
  return join(home, `.${tool}`, 'sessions', digest, 'state.json')
}

/** Resolution order: --state, then TAPIR_STATE_FILE, then the per-project file under ~/.tapir. */
export function locateSession(options: {stateFlag?: string; env: NodeJS.ProcessEnv; cwd: string}): SessionLocation {
  const projectRoot = findProjectRoot(options.cwd)
  const home = homeDir(options.env)
  const digest = createHash('sha256').update(projectRoot, 'utf8').digest('hex').slice(0, 12)
  const named = options.stateFlag || options.env.TAPIR_STATE_FILE
  return {
    path: named ? resolve(options.cwd, named) : perProject(home, 'tapir', digest),
    named: Boolean(named),
    projectRoot,
    pointer: join(home, '.tapir', 'state.json'),
    fallbacks: ['dowel', 'artisan'].flatMap((tool) => [perProject(home, tool, digest), join(home, `.${tool}`, 'state.json')]),
  }
}
