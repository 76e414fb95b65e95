import {editDistance} from '../lib/nearest-name.js'

const PREFIX = 'tapir:'

/** The spelling differences that do not make another command: case, `-` for `_`, the prefix. */
const bare = (name: string): string =>
  name
    .toLowerCase()
    .replaceAll('-', '_')
    .replace(/^tapir:/, '')

/** The command a mistyped one most likely meant: the same name but for the `tapir:` prefix, case
 *  or `-`/`_`, else the closest within a third of its length; undefined when none is that close. */
export function nearestCommand(typed: string, ids: readonly string[]): string | undefined {
  const wanted = bare(typed)
  if (wanted === '' || wanted.length > 64) return undefined
  let best: {id: string; distance: number} | undefined
  for (const id of ids) {
    const distance = editDistance(wanted, bare(id))
    // On a tie the verb wins over a session command: `tapir snap` means tapir:snap.
    const better = !best || distance < best.distance || (distance === best.distance && id.startsWith(PREFIX) && !best.id.startsWith(PREFIX))
    if (better) best = {id, distance}
  }
  return best && best.distance <= Math.floor(wanted.length / 3) ? best.id : undefined
}
