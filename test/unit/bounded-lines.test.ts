import {describe, expect, it} from 'vitest'
import {BoundedLines} from '../../src/lib/bounded-lines.js'

const bytes = (text: string) => Buffer.from(text, 'utf8')

describe('BoundedLines', () => {
  it('splits chunks into lines, keeping a line across chunks and a character split between them', () => {
    const lines = new BoundedLines(100)
    const euro = bytes('€')
    expect(lines.push(bytes('one\ntw'))).toEqual([{text: 'one', cut: false}])
    expect(lines.push(Buffer.concat([bytes('o '), euro.subarray(0, 1)]))).toEqual([])
    expect(lines.push(Buffer.concat([euro.subarray(1), bytes('\r\nthree')]))).toEqual([{text: 'two €', cut: false}])
    expect(lines.end()).toEqual({text: 'three', cut: false})
    expect(lines.end()).toBeUndefined()
  })

  it('keeps only the start of an overlong line and drops the rest up to its newline', () => {
    const lines = new BoundedLines(4)
    expect(lines.push(bytes('abcdefgh'))).toEqual([])
    expect(lines.push(bytes('ijk\nok\n'))).toEqual([
      {text: 'abcd', cut: true},
      {text: 'ok', cut: false},
    ])
  })

  it('holds no more than the bound however long a line runs', () => {
    const lines = new BoundedLines(1024)
    const chunk = Buffer.alloc(1024 * 1024, 0x61)
    for (let index = 0; index < 50; index++) lines.push(chunk)
    const last = lines.end()!
    expect(last.cut).toBe(true)
    expect(last.text).toHaveLength(1024)
  })
})
