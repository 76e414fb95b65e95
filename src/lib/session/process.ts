/** True while a process with this pid exists and this user may signal it. Only for pids tapir
 *  holds itself (a child it spawned); a recorded pid goes through owned-process.ts. */
export function isAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 1) return false
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false // ESRCH: gone; EPERM: someone else's, so not ours either
  }
}
