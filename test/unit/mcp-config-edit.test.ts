import {describe, expect, it} from 'vitest'
import {readConfigText, withEntry, withoutEntry} from '../../src/lib/mcp/config-edit.js'

const STRICT = {comments: false, trailingCommas: false}
const JSONC = {comments: true, trailingCommas: true}
const entry = {command: 'tapir', args: ['mcp:serve']}
const latin1 = (text: string) => Buffer.from(text, 'latin1')

/** Adds tapir's entry, checks that removing it gives back the text, and returns the added text. */
function roundTrip(text: string, dialect = STRICT): string {
  const added = withEntry(readConfigText(latin1(text), 'mcpServers', dialect), 'mcpServers', entry)
  expect(withoutEntry(readConfigText(latin1(added), 'mcpServers', dialect))).toBe(text)
  return added
}

describe('editing an MCP config as text', () => {
  it('adds after the last server in the file’s own indentation and line ending, and takes exactly that out again', () => {
    expect(roundTrip('{\r\n\t"mcpServers": {\r\n\t\t"a": {}\r\n\t}\r\n}\r\n')).toBe(
      '{\r\n\t"mcpServers": {\r\n\t\t"a": {},\r\n\t\t"tapir": {\r\n\t\t\t"command": "tapir",\r\n\t\t\t"args": [\r\n\t\t\t\t"mcp:serve"\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}\r\n',
    )
    expect(roundTrip('{"mcpServers":{"a":{}}}')).toBe('{"mcpServers":{"a":{},"tapir": {"command":"tapir","args":["mcp:serve"]}}}')
  })

  it('gives back an empty servers object the file had, and takes out one it made', () => {
    expect(roundTrip('{\n  "mcpServers": {}\n}\n')).toBe(
      '{\n  "mcpServers": {"tapir": {\n    "command": "tapir",\n    "args": [\n      "mcp:serve"\n    ]\n  }}\n}\n',
    )
    roundTrip('{"mcpServers": {  }}')
    roundTrip('{\n  "other": 1\n}\n')
    roundTrip('{"other":1}')
    roundTrip('{}')
  })

  it('keeps comments, trailing commas and a comment after the last server where the reader allows them', () => {
    roundTrip('{\n  "mcpServers": {\n    "a": {}, // mine\n  },\n}\n', JSONC)
    roundTrip('{\n  "mcpServers": {\n    "a": {} /* mine */\n  }\n}\n', JSONC)
  })

  it('replaces only the value of a stale entry', () => {
    const text = '{"mcpServers": {"tapir": {"command": "old", "args": ["x", "mcp:serve"]}, "b": 1e400}}'
    expect(withEntry(readConfigText(latin1(text), 'mcpServers', STRICT), 'mcpServers', entry)).toBe(
      '{"mcpServers": {"tapir": {\n  "command": "tapir",\n  "args": [\n    "mcp:serve"\n  ]\n}, "b": 1e400}}',
    )
  })

  it('a file of spaces that are not JSON whitespace (a latin1 NBSP) is not taken for an empty one', () => {
    expect(() => readConfigText(Buffer.from([0xa0]), 'mcpServers', STRICT)).toThrow(/is not valid JSON/)
  })

  it('a comment beside tapir’s entry, between it and its neighbours, is refused rather than dropped', () => {
    const text = '{"mcpServers": {"a": 1 /* keep */, "tapir": {"command": "tapir", "args": ["mcp:serve"]}}}'
    expect(() => withoutEntry(readConfigText(latin1(text), 'mcpServers', JSONC))).toThrow(/has comments beside its "tapir" entry/)
  })
})
