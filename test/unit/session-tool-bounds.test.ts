import {describe, expect, it} from 'vitest'
import {COMMANDS} from '../../src/commands/list.js'
import {TapirError} from '../../src/lib/errors.js'
import {inputSchema} from '../../src/lib/mcp/schema.js'
import {sessionTools} from '../../src/lib/mcp/session-tools.js'
import {inputFromArguments} from '../../src/lib/verbs/input.js'
import {WORDS} from '../../src/lib/verbs/words.js'

const tool = (name: string) => sessionTools(COMMANDS).find((candidate) => candidate.tool === name)!
const refusal = (name: string, args: Record<string, unknown>): string => {
  try {
    inputFromArguments(tool(name), args)
  } catch (error) {
    return error instanceof TapirError ? error.messageFor(WORDS.mcp) : String(error)
  }
  return 'taken'
}

describe('the session tools bound what an agent hands them', () => {
  it('refuses a URI, a device, too many or too long arguments, in one line naming the parameter', () => {
    expect(refusal('tapir_attach', {uri: `ws://127.0.0.1:1/${'A'.repeat(3_000_000)}=/ws`})).toBe(
      'uri takes at most 4096 characters (got 3000021).',
    )
    expect(refusal('tapir_start', {device: 'x'.repeat(257)})).toBe('device takes at most 256 characters (got 257).')
    expect(refusal('tapir_start', {device: 'linux', flutterArgs: Array.from({length: 200_000}, () => '--x')})).toBe(
      'flutterArgs takes at most 100 items (got 200000).',
    )
    expect(refusal('tapir_start', {device: 'linux', flutterArgs: ['--dart-define=A=1', 'y'.repeat(5000)]})).toBe(
      'flutterArgs takes at most 4096 characters an item (got 5000).',
    )
    expect(refusal('tapir_start', {device: 'sim', faults: ['latency=200'.padEnd(300, '0')]})).toBe(
      'faults takes at most 256 characters an item (got 300).',
    )
  })

  it('takes what a real start needs, and its schema says the bounds', () => {
    expect(refusal('tapir_start', {device: 'chrome', cdpPort: 9222, flutterArgs: ['--dart-define=API=https://example.test']})).toBe('taken')
    expect(refusal('tapir_attach', {uri: 'http://127.0.0.1:8181/AbCdEfGh12s=/'})).toBe('taken')
    const properties = inputSchema(tool('tapir_start').params).properties as Record<string, Record<string, unknown>>
    expect(properties.flutterArgs).toMatchObject({maxItems: 100, items: {type: 'string', maxLength: 4096}})
    expect(properties.device).toMatchObject({maxLength: 256})
  })
})
