import {describe, expect, it} from 'vitest'
import {UsageError} from '../../src/lib/errors.js'
import {toWebSocketUri} from '../../src/lib/vm/uri.js'

describe('toWebSocketUri', () => {
  const cases: Array<[string, string]> = [
    ['http://127.0.0.1:8181/AbCdEfGh12s=/', 'ws://127.0.0.1:8181/AbCdEfGh12s=/ws'],
    ['http://127.0.0.1:8181/AbCdEfGh12s=', 'ws://127.0.0.1:8181/AbCdEfGh12s=/ws'],
    ['ws://127.0.0.1:8181/AbCdEfGh12s=/ws', 'ws://127.0.0.1:8181/AbCdEfGh12s=/ws'],
    ['ws://127.0.0.1:8181/AbCdEfGh12s=/ws/', 'ws://127.0.0.1:8181/AbCdEfGh12s=/ws'],
    ['https://example.test:443/Tok-_en12345=/', 'wss://example.test/Tok-_en12345=/ws'],
    ['wss://example.test:9000/Tok-_en12345=/ws', 'wss://example.test:9000/Tok-_en12345=/ws'],
    ['http://127.0.0.1:8181/', 'ws://127.0.0.1:8181/ws'],
    ['http://127.0.0.1:8181', 'ws://127.0.0.1:8181/ws'],
    ['  http://[::1]:8181/AbCdEfGh12s=/  ', 'ws://[::1]:8181/AbCdEfGh12s=/ws'],
    ['http://localhost:8181/aBcDeFgH12s=/', 'ws://localhost:8181/aBcDeFgH12s=/ws'],
  ]
  it.each(cases)('%s -> %s', (input, expected) => {
    expect(toWebSocketUri(input)).toBe(expected)
  })

  it('keeps the token case-sensitive and its "=" as is', () => {
    expect(toWebSocketUri('http://h:1/aB=/')).toContain('/aB=/ws')
  })

  it.each([
    'not a uri AbCdEfGh12s=',
    'sse://127.0.0.1:8181/AbCdEfGh12s=/$debugHandler',
    'ftp://h/AbCdEfGh12s=/x',
    '127.0.0.1:8181/AbCdEfGh12s=/',
    'AbCdEfGh12s=',
  ])('refuses %j with a usage error that never echoes the input', (input) => {
    expect(() => toWebSocketUri(input)).toThrow(UsageError)
    expect(() => toWebSocketUri(input)).toThrow(/^Not a VM Service URI/)
    try {
      toWebSocketUri(input)
    } catch (error) {
      expect((error as Error).message).not.toContain('AbCdEfGh12s=')
    }
  })
})
