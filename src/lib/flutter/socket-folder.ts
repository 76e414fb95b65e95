import {lstatSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {basename, dirname, join} from 'node:path'

const FOLDER = /^tapir-run-[A-Za-z0-9]{6}$/
const SOCKET = 'supervisor.sock'

/** A fresh private folder in the temp folder for one supervisor's socket (a socket path must stay
 *  short, which a session folder under a deep home may not be); the socket's path in it. */
export function makeSocketFolder(): string {
  return join(mkdtempSync(join(tmpdir(), 'tapir-run-')), SOCKET)
}

/** Removes what a supervisor that has ended leaves: its socket and the folder made for it. Only a
 *  folder of that name that is this user's and private (so nothing in it is anyone else's), never
 *  through a link. */
export function removeSocketFolder(socketPath: string): void {
  const folder = dirname(socketPath)
  if (basename(socketPath) !== SOCKET || !FOLDER.test(basename(folder))) return
  try {
    const stats = lstatSync(folder)
    const me = process.getuid?.()
    if (!stats.isDirectory() || (me !== undefined && stats.uid !== me) || (stats.mode & 0o077) !== 0) return
    rmSync(folder, {recursive: true, force: true})
  } catch {
    // gone already
  }
}
