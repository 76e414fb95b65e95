import {TapirError} from '../errors.js'

/** The longest delay a Node timer keeps; a longer one fires at once, with a warning. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1

/** The one time limit of a whole verb: connecting, finding the isolate and every call share it,
 *  so a slow app cannot stretch a verb to a multiple of --timeout. A verb that waits inside the
 *  app (wait_for, tap --until) gets that wait on top, kept for the call that waits. */
export class Deadline {
  readonly totalMs: number
  private endsAt: number

  constructor(
    timeoutMs: number,
    private readonly waitMs = 0,
  ) {
    this.totalMs = timeoutMs + waitMs
    this.endsAt = Date.now() + this.totalMs
  }

  /** The part before the app's own wait: connecting and finding the isolate must end within it,
   *  so they never eat into the time the app was given to wait. */
  get setup(): Deadline {
    const setup = new Deadline(this.totalMs - this.waitMs)
    setup.endsAt = this.endsAt - this.waitMs
    return setup
  }

  /** What is left, as a delay a timer can take. */
  remainingMs(): number {
    return Math.min(MAX_TIMEOUT_MS, Math.max(0, this.endsAt - Date.now()))
  }

  /** The error of a step that was still waiting when the deadline passed. */
  expired(what: string): TapirError {
    return new TapirError(
      (words) =>
        `${what} got no answer within ${this.totalMs} ms. The app may be paused at a breakpoint or busy; resume it, or ${words.only('raise --timeout', 'start the MCP server with a longer timeout')}.`,
      'connection',
    )
  }

  /** `work`'s outcome, or the expired error once the deadline passes first. */
  race<T>(work: Promise<T>, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(this.expired(what)), this.remainingMs())
      work.then(
        (value) => {
          clearTimeout(timer)
          resolve(value)
        },
        (error: unknown) => {
          clearTimeout(timer)
          reject(error)
        },
      )
    })
  }
}

/** A timer until `deadline` (epoch ms), however far: a Node timer longer than MAX_TIMEOUT_MS
 *  fires at once, so a longer wait is armed again in steps that Node keeps. */
export function timerUntil(deadline: number, fire: () => void): {clear(): void} {
  let timer: NodeJS.Timeout
  const arm = (): void => {
    const left = deadline - Date.now()
    timer = left > MAX_TIMEOUT_MS ? setTimeout(arm, MAX_TIMEOUT_MS) : setTimeout(fire, Math.max(0, left))
  }
  arm()
  return {clear: () => clearTimeout(timer)}
}
