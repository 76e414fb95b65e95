import {describe, expect, it} from 'vitest'
import {renderOutcome, wantsColour} from '../../src/lib/output/print.js'

const mark = (line: string) => `<${line}>`

describe('renderOutcome: the one rendering of a CLI outcome', () => {
  it('ends each stream with a newline and prints nothing for an empty one', () => {
    expect(renderOutcome({stdout: '✓ Tapped e5', stderr: [], exitCode: 0})).toEqual({stdout: '✓ Tapped e5\n', stderr: '', exitCode: 0})
    expect(renderOutcome({stdout: '', stderr: ['✗ No app'], exitCode: 3})).toEqual({stdout: '', stderr: '✗ No app\n', exitCode: 3})
  })

  it('keeps stdout lines, keeps each stderr entry on one line, and escapes control characters in both', () => {
    const rendered = renderOutcome({stdout: 'a\u001b[2J\nb', stderr: ['⚠ two\nlines', '✗ bell\u0007'], exitCode: 1})
    expect(rendered.stdout).toBe('a\\u001b[2J\nb\n')
    expect(rendered.stderr).toBe('⚠ two\\nlines\n✗ bell\\u0007\n')
  })

  it('paints each line of each stream with its own painter, after escaping', () => {
    const rendered = renderOutcome(
      {stdout: '✓ one\n✓ two', stderr: ['⚠ three\u0007'], exitCode: 0},
      {stdout: mark, stderr: (line) => `[${line}]`},
    )
    expect(rendered).toEqual({stdout: '<✓ one>\n<✓ two>\n', stderr: '[⚠ three\\u0007]\n', exitCode: 0})
  })

  it('hides the VM Service token', () => {
    expect(renderOutcome({stdout: 'ws://127.0.0.1:9/Tok3nTok3n1=/ws', stderr: [], exitCode: 0}).stdout).toBe('ws://127.0.0.1:9/***/ws\n')
  })
})

describe('wantsColour', () => {
  it('colours a terminal only, and never with NO_COLOR set', () => {
    expect(wantsColour({isTTY: true}, {})).toBe(true)
    expect(wantsColour({isTTY: false}, {})).toBe(false)
    expect(wantsColour({}, {})).toBe(false)
    expect(wantsColour({isTTY: true}, {NO_COLOR: '1'})).toBe(false)
  })
})
