import {spawn, type ChildProcess} from 'node:child_process'

/** Another process that edits a file the moment a file whose name matches a pattern appears in a
 *  folder (tapir's temp file), as a user's editor or agent would while tapir writes. It runs
 *  apart from the test so its edit lands while tapir's synchronous write is under way. */
const EDITOR = `
const fs = require('node:fs')
let watcher
process.on('message', ({dir, pattern, target, text, atomic}) => {
  watcher?.close()
  const name = new RegExp(pattern)
  let fired = false
  watcher = fs.watch(dir, (_event, file) => {
    if (fired || !file || !name.test(file)) return
    fired = true
    if (atomic) {
      fs.writeFileSync(target + '.saving', text)
      fs.renameSync(target + '.saving', target)
    } else fs.writeFileSync(target, text)
    watcher.close()
    process.send('edited')
  })
  process.send('armed')
})
`

export interface Edit {
  /** The folder to watch, and the pattern of the file name that triggers the edit. */
  dir: string
  pattern: string
  /** The file to write, and its new content. */
  target: string
  text: string
  /** Written as an editor's atomic save (a temp file renamed over it) rather than in place. */
  atomic?: boolean
}

export class FileEditor {
  private readonly child: ChildProcess = spawn(process.execPath, ['-e', EDITOR], {stdio: ['ignore', 'inherit', 'inherit', 'ipc']})
  private readonly messages: string[] = []
  private waiting: ((message: string) => void) | undefined

  constructor() {
    this.child.on('message', (message) => {
      const waiter = this.waiting
      this.waiting = undefined
      if (waiter) waiter(String(message))
      else this.messages.push(String(message))
    })
  }

  private next(): Promise<string> {
    const queued = this.messages.shift()
    if (queued !== undefined) return Promise.resolve(queued)
    return new Promise((resolve) => (this.waiting = resolve))
  }

  /** Watches for the trigger; resolves once the watch is in place. */
  async arm(edit: Edit): Promise<void> {
    this.child.send(edit)
    expectMessage(await this.next(), 'armed')
  }

  /** Resolves once the armed edit was made. */
  async edited(): Promise<void> {
    expectMessage(await this.next(), 'edited')
  }

  close(): void {
    this.child.kill()
  }
}

function expectMessage(message: string, expected: string): void {
  if (message !== expected) throw new Error(`the editor said ${message}, not ${expected}`)
}
