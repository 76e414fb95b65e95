import {spawnSync} from 'node:child_process'
import {execa} from 'execa'

/** A user id with no passwd entry on any ordinary machine. */
export const UNKNOWN_UID = 54321

const mapping = [`--map-user=${UNKNOWN_UID}`, `--map-group=${UNKNOWN_UID}`]

/** Whether this machine lets the tests open a user namespace that maps the current user to
 *  UNKNOWN_UID (root, or unprivileged user namespaces). */
export const canMapUser = spawnSync('unshare', ['--user', ...mapping, 'true']).status === 0

/** Runs a program as UNKNOWN_UID, a user with no passwd entry, inside a user namespace that maps
 *  that id onto the current user. The program keeps the current user's access to files (so a
 *  checkout in a private folder still loads), while every id it sees, its own and the owners of
 *  the files it reads, is UNKNOWN_UID. */
export async function runAsUnknownUser(
  command: string,
  args: string[],
  options: {env: Record<string, string>; cwd: string},
): Promise<{stdout: string; stderr: string; exitCode: number}> {
  const result = await execa('unshare', ['--user', ...mapping, command, ...args], {
    env: options.env,
    extendEnv: false,
    cwd: options.cwd,
    reject: false,
    timeout: 60_000,
  })
  return {stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode ?? -1}
}
