import {expect} from 'vitest'
import {createMonitorsApp} from '../../src/sim/app/index.js'
import {ExtensionError, type SimApp} from '../../src/sim/app-contract.js'

/** The parsed details of a typed ExtensionError: the message and its error envelope. */
export interface Failure {
  message: string
  envelope: {type: string; suggestions: string[]; widget_path?: string}
}

/** The ExtensionError `pending` rejects with; any other rejection is rethrown, and a resolve fails the test. */
async function rejection(pending: Promise<unknown>): Promise<ExtensionError> {
  try {
    await pending
  } catch (error) {
    if (error instanceof ExtensionError) return error
    throw error
  }
  throw new Error('expected the call to fail')
}

/**
 * The parsed details of the ExtensionError `pending` rejects with, after asserting its code is
 * `expectedCode`: by default -32000, the code of every typed-envelope failure; 'any' leaves it unchecked.
 */
export async function failure(pending: Promise<unknown>, expectedCode: number | 'any' = -32000): Promise<Failure> {
  const error = await rejection(pending)
  if (expectedCode !== 'any') expect(error.code).toBe(expectedCode)
  return JSON.parse(error.details) as Failure
}

/** Like `failure`, but returns the error code alongside the details instead of asserting it. */
export async function failureWithCode(pending: Promise<unknown>): Promise<Failure & {code: number}> {
  const error = await rejection(pending)
  return {code: error.code, ...(JSON.parse(error.details) as Failure)}
}

/** The ref on the `nth` (0-based) snapshot line that contains `fragment`. */
export function refOf(yaml: string, fragment: string, nth = 0): string {
  const line = yaml.split('\n').filter((l) => l.includes(fragment))[nth]
  const ref = line && /\[ref=(e\d+)\]/.exec(line)?.[1]
  if (!ref) throw new Error(`no ref line with ${fragment} in\n${yaml}`)
  return ref
}

/** The YAML snapshot of `app`, taken with `params`. */
export async function snap(app: SimApp, params: Record<string, string> = {}): Promise<string> {
  return (await app.call('snap', params)).snapshot as string
}

/** Spread into a call's params to leave the snapshot out of its result. */
export const quiet = {includeSnapshot: 'false'}

/** Signs in as ann@example.com from the login screen `app` is on. */
export async function signIn(app: SimApp): Promise<void> {
  const login = await snap(app)
  await app.call('fill', {ref: refOf(login, 'textbox "Email"'), text: 'ann@example.com', ...quiet})
  await app.call('fill', {ref: refOf(login, 'textbox "Password"'), text: 'hunter2', ...quiet})
  await app.call('tap', {ref: refOf(login, 'button "Sign in"'), ...quiet})
}

/** A new app, signed in and on /monitors, with no snapshot taken since signing in. */
export async function signedInApp(): Promise<SimApp> {
  const app = createMonitorsApp()
  await signIn(app)
  return app
}

/** A new app, signed in, with the snapshot of /monitors. */
export async function signedIn(): Promise<{app: SimApp; yaml: string}> {
  const app = await signedInApp()
  return {app, yaml: await snap(app)}
}

/** A new app, signed in and moved to /settings through its Settings button, with the snapshot there. */
export async function onSettings(): Promise<{app: SimApp; yaml: string}> {
  const {app, yaml} = await signedIn()
  await app.call('tap', {ref: refOf(yaml, 'button "Settings"'), ...quiet})
  return {app, yaml: await snap(app)}
}
