import {join} from 'node:path'
import type {SessionLocation} from '../../src/lib/session/location.js'

/** The session file `state.json` in `dir`, named as `--state` names one: for tests of the files
 *  kept beside a session (its lock, its sidecars, its holds). */
export function namedSessionIn(dir: string): SessionLocation {
  return {path: join(dir, 'state.json'), named: true, projectRoot: dir, pointer: undefined, fallbacks: [], folders: [dir]}
}
