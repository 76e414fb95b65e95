import {describe, expect, it} from 'vitest'
import {locateOnScreen} from '../../src/lib/record/locate.js'
import {screenNodes} from '../../src/lib/record/screen.js'

/** A list whose rows share the label "Pause", the last two below the view. */
const SNAPSHOT = [
  '- heading "Monitors" [ref=e8]',
  '- button "Pause" [ref=e15]',
  '- button "Pause" [ref=e17] [occluded]',
  '- button "Pause" [ref=e19]',
  '- button "Pause" [ref=e37] [offscreen]',
  '- button "Pause" [ref=e39] [occluded] [offscreen]',
  '- text "[offscreen]"',
].join('\n')

describe('a recording counts the twins a replay will see', () => {
  const nodes = screenNodes(SNAPSHOT)
  const screen = {complete: true, nodes}
  const node = (ref: string) => nodes.find((entry) => entry.ref === ref)!

  it('reads the [offscreen] mark of a ref line, never from a label', () => {
    expect(nodes.map((entry) => entry.offscreen === true)).toEqual([false, false, false, false, true, true, false])
  })

  it('with the package, observe lists the off-screen twins too: all are counted', () => {
    expect(locateOnScreen(node('e19'), screen, {onScreenOnly: false})).toMatchObject({kind: 'observe', nth: 3, of: 5})
  })

  it('with no package, observe lists only those on screen: only they are counted', () => {
    expect(locateOnScreen(node('e19'), screen, {onScreenOnly: true})).toMatchObject({kind: 'observe', nth: 3, of: 3})
    const below = locateOnScreen(node('e37'), screen, {onScreenOnly: true})
    expect(below).toMatchObject({kind: 'none'})
    expect(below.kind === 'none' && below.why).toContain('it was [offscreen]')
  })

  it('a find still counts every twin: find matches off-screen nodes on both', () => {
    expect(locateOnScreen(node('e15'), screen, {onScreenOnly: true})).toMatchObject({
      kind: 'find',
      predicates: {semanticsLabel: 'Pause'},
      matches: 5,
    })
  })
})
