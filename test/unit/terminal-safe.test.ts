import {describe, expect, it} from 'vitest'
import {terminalSafe} from '../../src/lib/output/terminal-safe.js'

const ESC = '\u001b'
const CSI = '\u009b'
const OSC = '\u009d'

describe('terminalSafe', () => {
  it('escapes C0 controls, DEL and C1 controls, keeping newline and tab in multi-line text', () => {
    const text = `a${ESC}]0;owned\u0007b\rc\u0008d\u007fe${CSI}2Jf${OSC}g\n\th`
    expect(terminalSafe(text)).toBe('a\\u001b]0;owned\\u0007b\\rc\\u0008d\\u007fe\\u009b2Jf\\u009dg\n\th')
  })

  it('escapes newlines too in a single line', () => {
    expect(terminalSafe('one\ntwo\r\n', true)).toBe('one\\ntwo\\r\\n')
  })

  it('leaves printable text, including non-Latin scripts and emoji, untouched', () => {
    const text = '- button "Ω → 東京 ✓ 😀 ÿ" [ref=e1]\n'
    expect(terminalSafe(text)).toBe(text)
  })

  it('keeps JSON exact: the escaped text parses to the same value', () => {
    const value = {label: `x${ESC}[2J${CSI}31m${OSC}0;t\u0007\u0085\u007f`, list: ['\u0080', '\u009f'], nested: {text: 'line\nnext\ttab'}}
    for (const json of [JSON.stringify(value), JSON.stringify(value, null, 2)]) {
      const safe = terminalSafe(json)
      // eslint-disable-next-line no-control-regex -- the test looks for raw control characters
      expect(safe).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
      expect(JSON.parse(safe)).toEqual(value)
    }
  })
})
