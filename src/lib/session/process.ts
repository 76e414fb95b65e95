/** True while a process with this pid exists (and we may signal it). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
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
