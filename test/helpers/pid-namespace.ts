import {spawnSync} from 'node:child_process'
import {execa} from 'execa'

/** Whether this machine lets the tests open a throwaway PID namespace (root, or user namespaces). */
export const canUnshare = spawnSync('unshare', ['-pf', '--mount-proc', 'true']).status === 0

/** Runs a shell script as pid 1 of a fresh PID namespace with its own /proc, in a session and
 *  process group of its own: a signal its processes send to pid -1 reaches only the namespace,
 *  and one to pid 0 only that group (a process group spans namespaces, hence `detached`). A script
 *  still running after `timeoutMs` is ended with its whole namespace (--kill-child): nothing of it
 *  outlives the test. */
export async function inPidNamespace(
  script: string,
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<{stdout: string; stderr: string; exitCode: number}> {
  const result = await execa('unshare', ['-pf', '--kill-child', '--mount-proc', 'sh', '-c', script], {
    env: {NO_COLOR: '1', ...env},
    reject: false,
    timeout: timeoutMs,
    detached: true,
  })
  return {stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode ?? -1}
}
