import {describe, expect, it} from 'vitest'
import {redactToken} from '../../src/lib/output/redact-token.js'

describe('redactToken', () => {
  it('hides the token in http and ws URIs inside a message', () => {
    const text = 'cannot reach ws://127.0.0.1:8181/AbCdEfGh12s=/ws or http://127.0.0.1:8181/AbCdEfGh12s=/'
    expect(redactToken(text)).toBe('cannot reach ws://127.0.0.1:8181/***/ws or http://127.0.0.1:8181/***/')
  })
  it('leaves a token-less /ws URI alone', () => {
    expect(redactToken('ws://127.0.0.1:8181/ws')).toBe('ws://127.0.0.1:8181/ws')
  })
  it('leaves other URLs in a message alone', () => {
    expect(redactToken('GET http://example.com/api/users failed')).toBe('GET http://example.com/api/users failed')
  })
  it('hides a token segment in front of /ws even without the = padding', () => {
    expect(redactToken('ws://h:1/AbCdEfGh12s/ws')).toBe('ws://h:1/***/ws')
    expect(redactToken('ws://h:1/vm/AbCdEfGh12s/ws/')).toBe('ws://h:1/vm/***/ws/')
  })

  it.each([
    ['http://127.0.0.1:8181/vm/AbCdEfGh12s=/', 'http://127.0.0.1:8181/vm/***/'],
    ['ws://127.0.0.1:8181/a/b/AbCdEfGh12s=/ws', 'ws://127.0.0.1:8181/a/b/***/ws'],
    ['http://h:1/AbCdEfGh12s=/x/Ab-_cd12==/', 'http://h:1/***/x/***/'],
    ['http://h:1/prefix/AbCdEfGh12s=', 'http://h:1/prefix/***'],
  ])('hides a token at any depth of the path: %s', (uri, shown) => {
    expect(redactToken(uri)).toBe(shown)
  })

  it.each(['HTTP://h:1/AbCdEfGh12s=/', 'Ws://h:1/AbCdEfGh12s=/ws', 'WSS://h:1/vm/AbCdEfGh12s=/WS'])(
    'matches the scheme in any case: %s',
    (uri) => {
      expect(redactToken(uri)).not.toContain('AbCdEfGh12s')
      expect(redactToken(uri)).toContain('***')
    },
  )

  it('hides a URI embedded in other text, in JSON, in brackets and at the end of a sentence', () => {
    const text = `{"devtools":"see (http://h:1/vm/AbCdEfGh12s=/). and ws://h:1/Zz9_-Zz9_-Q=/ws.","log":"x"}`
    const shown = redactToken(text)
    expect(shown).toBe(`{"devtools":"see (http://h:1/vm/***/). and ws://h:1/***/ws.","log":"x"}`)
  })

  it('hides a URI carried in the query of another, plain or percent-encoded', () => {
    expect(redactToken('http://127.0.0.1:9100/?uri=ws://127.0.0.1:8181/AbCdEfGh12s=/ws')).toBe(
      'http://127.0.0.1:9100/?uri=ws://127.0.0.1:8181/***/ws',
    )
    const encoded = 'http://127.0.0.1:9100/?uri=http%3A%2F%2F127.0.0.1%3A8181%2FAbCdEfGh12s%3D%2F'
    expect(redactToken(encoded)).toBe('http://127.0.0.1:9100/?uri=http%3A%2F%2F127.0.0.1%3A8181%2F***%2F')
  })

  it('does not mask a host in front of /ws, nor a plain word=value segment', () => {
    expect(redactToken('http://a:1/?uri=ws://b:2/ws')).toBe('http://a:1/?uri=ws://b:2/ws')
    expect(redactToken('http://a:1/search/q=flutter/')).toBe('http://a:1/search/q=flutter/')
  })

  it('scans a long text without a URI, or with many scheme-like words, in linear time', () => {
    const letters = 'a'.repeat(2_000_000)
    const started = performance.now()
    redactToken(`${letters}://h/AbCdEfGh12s=/`)
    redactToken(`${'ab:/'.repeat(500_000)}http://h:1/AbCdEfGh12s=/`)
    expect(performance.now() - started).toBeLessThan(1000)
  })
})
