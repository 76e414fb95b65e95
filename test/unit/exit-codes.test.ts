import {describe, expect, it} from 'vitest'
import {TapirError, UsageError} from '../../src/lib/errors.js'
import {EXIT, exitCodeFor} from '../../src/lib/output/exit-codes.js'

describe('exitCodeFor: the one mapping from a failure to an exit code', () => {
  it('gives 1 to the caller’s and this machine’s failures, 3 to the app’s and the connection’s', () => {
    expect(exitCodeFor(new UsageError('bad flag'))).toBe(EXIT.failed)
    expect(exitCodeFor(new TapirError('no session', 'local'))).toBe(EXIT.failed)
    expect(exitCodeFor(new TapirError('stale ref', 'app'))).toBe(EXIT.appError)
    expect(exitCodeFor(new TapirError('socket closed', 'connection'))).toBe(EXIT.appError)
  })
  it('reads an error tapir did not foresee as the app’s, as the original CLI did', () => {
    expect(exitCodeFor(new Error('boom'))).toBe(EXIT.appError)
  })
})
