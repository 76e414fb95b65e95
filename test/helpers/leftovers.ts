import {readdirSync, readFileSync} from 'node:fs'
import {afterAll, expect} from 'vitest'
import {PROCESS_MARK} from './cli.js'

/** The processes that carry this test file's mark in their environment: everything the CLI it
 *  spawned started (a supervisor, flutter, the app, a sim, Chrome) inherits it. Zombies are gone. */
export function markedProcesses(): Array<{pid: number; command: string}> {
  const marked: Array<{pid: number; command: string}> = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue
    try {
      if (!readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(PROCESS_MARK)) continue
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue
      marked.push({pid: Number(name), command: readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim()})
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return marked
}

/** Asserts, once this file's tests are done, that nothing they started through the CLI still
 *  runs (after a short grace for processes on their way out); what is left is then ended, by pid,
 *  so one failure does not leak into the next file. */
export function expectNoProcessLeft(graceMs = 5000): void {
  afterAll(async () => {
    const deadline = Date.now() + graceMs
    let left = markedProcesses()
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      left = markedProcesses()
    }
    for (const {pid} of left) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // gone meanwhile
      }
    }
    expect(left, 'processes this test file left running').toEqual([])
  }, graceMs + 5000)
}
