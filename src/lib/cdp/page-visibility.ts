import {CdpError} from './errors.js'
import {isObject} from './json-shape.js'
import type {CdpPage} from './page.js'

/** The page's `document.visibilityState` ('visible', 'hidden', ...), checked to be an answer. */
export async function pageVisibility(page: CdpPage): Promise<unknown> {
  const answer = await page.send('Runtime.evaluate', {expression: 'document.visibilityState', returnByValue: true})
  if (!isObject(answer.result)) throw new CdpError('CDP command failed: Runtime.evaluate: its result has no remote object (result).')
  return answer.result.value
}
