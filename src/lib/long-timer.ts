import {MAX_TIMEOUT_MS} from './vm/deadline.js'

/** A timer until `deadline` (epoch ms), however far: a Node timer longer than about 24.8 days
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
