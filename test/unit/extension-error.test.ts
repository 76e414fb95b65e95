import {describe, expect, it} from 'vitest'
import {exitCodeFor} from '../../src/lib/output/exit-codes.js'
import {extensionFailure, parseDetails} from '../../src/lib/vm/extension-error.js'
import {RpcError} from '../../src/lib/vm/rpc-error.js'

describe('parseDetails', () => {
  it('reads the JSON {message, envelope} tapir puts in data.details', () => {
    const details = JSON.stringify({
      message: 'Widget ref=e5 is not actionable: not enabled',
      envelope: {type: 'disabled', suggestions: [], widget_path: 'e5'},
    })
    expect(parseDetails(details)).toEqual({
      message: 'Widget ref=e5 is not actionable: not enabled',
      envelope: {type: 'disabled', suggestions: [], widget_path: 'e5'},
    })
  })
  it('takes the first line of plain text (a thrown error with its stack)', () => {
    expect(parseDetails('Bad state: no element\n#0 main (file:///a.dart:1)')).toEqual({message: 'Bad state: no element'})
  })
  it('treats JSON without a message as text', () => {
    expect(parseDetails('{"exception":"x"}')).toEqual({message: '{"exception":"x"}'})
  })
})

describe('extensionFailure', () => {
  it('explains -32601 as tapir missing from the app, exit 3', () => {
    const error = extensionFailure('ext.tapir.snap', new RpcError('ext.tapir.snap', -32601, 'Method not found', {request: {}}))
    expect(error.kind).toBe('app')
    expect(exitCodeFor(error)).toBe(3)
    expect(error.message).toContain('TapirPlugin.install()')
  })
  it('keeps the envelope for --json', () => {
    const details = JSON.stringify({message: 'stale handle', envelope: {type: 'stale', suggestions: ['e3']}})
    const error = extensionFailure('ext.tapir.tap', new RpcError('ext.tapir.tap', -32000, 'Server error', {details}))
    expect(error).toMatchObject({
      message: 'stale handle',
      kind: 'app',
      details: {code: -32000, envelope: {type: 'stale', suggestions: ['e3']}},
    })
  })
  it('names the method and code when there are no details', () => {
    const error = extensionFailure('ext.tapir.tap', new RpcError('ext.tapir.tap', -32603, 'Internal error', undefined))
    expect(error.message).toBe('ext.tapir.tap failed: the app answered "Internal error" (-32603).')
  })
})

// The three ways DWDS in WebSocket mode fails a call (web_socket_proxy_service.dart
// `_callServiceExtension`, shared.dart `wrapInErrorHandlerAsync`): none carries data.details.
describe('extensionFailure behind DWDS in WebSocket mode', () => {
  const wrapped = (text: string) =>
    new RpcError('ext.tapir.tap', -32603, `Unexpected DWDS error for callServiceExtension: ${text}`, undefined)
  it('says the 10 s cap gave up, not that the app failed, and that the action may still land', () => {
    const error = extensionFailure(
      'ext.tapir.tap',
      wrapped('TimeoutException after 0:00:10.000000: Service extension ext.tapir.tap timed out - received 0/1 responses'),
    )
    expect(error.message).toContain('stops waiting for any call after 10 s')
    expect(error.message).toContain('may still carry it out')
    expect(exitCodeFor(error)).toBe(3)
  })
  it('says no page is connected', () => {
    expect(extensionFailure('ext.tapir.tap', wrapped('Bad state: No clients available for service extension')).message).toContain(
      'no browser page is connected',
    )
  })
  it("says what the page answered, reading tapir's JSON details when that is what it was", () => {
    expect(extensionFailure('ext.tapir.tap', wrapped('Service extension failed in some clients: Bad state: gone')).message).toBe(
      'ext.tapir.tap failed in the app: Bad state: gone',
    )
    const details = JSON.stringify({message: 'stale handle', envelope: {type: 'stale'}})
    expect(extensionFailure('ext.tapir.tap', wrapped(`Service extension failed in some clients: ${details}`))).toMatchObject({
      message: 'stale handle',
      details: {code: -32603, envelope: {type: 'stale'}},
    })
  })
  // dwds/web/client.dart handleServiceExtensionRequest: a page without the DDC library-bundle
  // reloader (manager.dart handleServiceExtension gives null) answers every call this way.
  it('names the cause and the fix, in one line, when the page cannot run extensions at all', () => {
    const error = extensionFailure('ext.tapir.snap', wrapped('Service extension failed in some clients: Service extension not supported'))
    expect(error.message).toBe(
      'ext.tapir.snap: the app\'s page answers no extension call ("Service extension not supported"): in DWDS\'s WebSocket mode (flutter run -d web-server) only the DDC library-bundle format runs them. Use Flutter 3.35 or later, or run with --web-experimental-hot-reload.',
    )
    expect(error.message).not.toContain('\n')
    expect(exitCodeFor(error)).toBe(3)
  })
})
