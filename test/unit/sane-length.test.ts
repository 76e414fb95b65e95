import {describe, expect, it} from 'vitest'
import {printable} from '../../src/lib/output/printable.js'
import {cutLine, cutMessage, MAX_LINE_CHARS, MAX_LINES} from '../../src/lib/output/sane-length.js'

describe('sane length', () => {
  it('leaves a line of up to MAX_LINE_CHARS as it is, and cuts a longer one saying how much is left out', () => {
    expect(cutLine('a'.repeat(MAX_LINE_CHARS))).toBe('a'.repeat(MAX_LINE_CHARS))
    expect(cutLine('a'.repeat(MAX_LINE_CHARS + 5))).toBe(`${'a'.repeat(MAX_LINE_CHARS)}… (5 more characters)`)
  })

  it('never splits a surrogate pair', () => {
    const cut = cutLine(`${'a'.repeat(MAX_LINE_CHARS - 1)}😀tail`)
    expect(cut).toBe(`${'a'.repeat(MAX_LINE_CHARS - 1)}… (6 more characters)`)
  })

  it('cuts every line of a message on its own, and counts the lines past MAX_LINES', () => {
    expect(cutMessage(`short\n${'b'.repeat(MAX_LINE_CHARS + 1)}\nlast`)).toBe(
      `short\n${'b'.repeat(MAX_LINE_CHARS)}… (1 more characters)\nlast`,
    )
    const many = cutMessage(Array.from({length: MAX_LINES + 3}, (_, index) => `line ${index}`).join('\n')).split('\n')
    expect(many).toHaveLength(MAX_LINES + 1)
    expect(many.at(-1)).toBe('… (3 more lines)')
  })

  it('printable cuts a single line (an error, a warning) but never a result', () => {
    const long = 'c'.repeat(10 * MAX_LINE_CHARS)
    expect(printable(long)).toBe(long)
    expect(printable(long, true).length).toBeLessThan(2 * MAX_LINE_CHARS + 40)
  })
})
