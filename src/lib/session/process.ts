import {readFileSync} from 'node:fs'

/** True while a process with this pid exists and is ours to signal. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false // ESRCH: gone; EPERM: someone else's, so not ours either
  }
}

/** Whether `pid` is still the process tapir started: alive and, where /proc tells, running
 *  `marker` (a recycled pid then runs something else). */
export function isOurs(pid: number, marker: string): boolean {
  if (!isAlive(pid)) return false
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)
  } catch {
    return true // no /proc here (macOS): the pid is all we have
  }
}

/** SIGTERM, then SIGKILL if it is still there after `graceMs`. Resolves once it is gone. */
export async function terminate(pid: number, graceMs = 5000): Promise<void> {
  if (!isAlive(pid)) return
  process.kill(pid, 'SIGTERM')
  const deadline = Date.now() + graceMs
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL')
      await new Promise((resolve) => setTimeout(resolve, 100))
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
