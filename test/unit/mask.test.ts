import {describe, expect, it} from 'vitest'
import {maskWholeValues} from '../../src/lib/run/mask.js'

describe('maskWholeValues', () => {
  it('masks a secret the app changed in case, as a whole value only', () => {
    expect(maskWholeValues('⚠ The field holds "GRACE" after the settle', ['grace'])).toBe('⚠ The field holds "***" after the settle')
    expect(maskWholeValues('Grace typed grace, shown GrAcE; Graceful stays', ['grace'])).toBe('*** typed ***, shown ***; Graceful stays')
    expect(maskWholeValues('STRASSE and strasse', ['straße'])).toBe('*** and ***')
  })

  it('keeps a one-letter secret out of longer words, and finds overlapping candidates', () => {
    expect(maskWholeValues('e2 Filled E e', ['e'])).toBe('e2 Filled *** ***')
    expect(maskWholeValues('aaa aa', ['aa'])).toBe('aaa ***')
    expect(maskWholeValues('price $1.50 (x) [a]', ['$1.50', '(x)', '[a]'])).toBe('price *** *** ***')
  })
})
