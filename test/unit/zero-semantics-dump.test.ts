import {describe, expect, it} from 'vitest'
import {dartString} from '../../src/lib/zero/dart.js'
import {parseSemanticsDump} from '../../src/lib/zero/semantics-dump.js'

// Expected texts from flutter/flutter packages/flutter/test/semantics/semantics_test.dart
// ('toStringDeep respects childOrder parameter' and 'debug properties'): the format tapir reads.
const FLUTTER_TREE =
  'SemanticsNode#7\n' +
  ' │ STALE\n' +
  ' │ owner: null\n' +
  ' │ Rect.fromLTRB(0.0, 0.0, 25.0, 5.0)\n' +
  ' │\n' +
  ' ├─SemanticsNode#1\n' +
  ' │   STALE\n' +
  ' │   owner: null\n' +
  ' │   Rect.fromLTRB(15.0, 0.0, 20.0, 5.0)\n' +
  ' │\n' +
  ' ├─SemanticsNode#2\n' +
  ' │   STALE\n' +
  ' │   owner: null\n' +
  ' │   Rect.fromLTRB(10.0, 0.0, 15.0, 5.0)\n' +
  ' │\n' +
  ' └─SemanticsNode#4\n' +
  '   │ STALE\n' +
  '   │ owner: null\n' +
  '   │ Rect.fromLTRB(0.0, 0.0, 10.0, 5.0)\n' +
  '   │\n' +
  '   ├─SemanticsNode#5\n' +
  '   │   STALE\n' +
  '   │   owner: null\n' +
  '   │   Rect.fromLTRB(5.0, 0.0, 10.0, 5.0)\n' +
  '   │\n' +
  '   └─SemanticsNode#6\n' +
  '       STALE\n' +
  '       owner: null\n' +
  '       Rect.fromLTRB(0.0, 0.0, 5.0, 5.0)\n'

const FLUTTER_ALL_PROPERTIES =
  'SemanticsNode#2\n' +
  '   STALE\n' +
  '   owner: null\n' +
  '   merge boundary ⛔️\n' +
  '   Rect.fromLTRB(60.0, 20.0, 80.0, 50.0)\n' +
  '   actions: longPress, scrollUp, showOnScreen\n' +
  '   flags: hasCheckedState, isSelected, isButton, hasSelectedState\n' +
  '   label: "Use all the properties"\n' +
  '   textDirection: rtl\n' +
  '   sortKey: OrdinalSortKey#19df5(order: 1.0)\n'

const FLUTTER_BLOCKED =
  'SemanticsNode#1\n' +
  '   STALE\n' +
  '   owner: null\n' +
  '   Rect.fromLTRB(60.0, 20.0, 80.0, 50.0)\n' +
  '   actions: didGainAccessibilityFocus, longPress🚫️, scrollUp🚫️,\n' +
  '     showOnScreen🚫️\n'

// A node under a Transform.scale(0.5): semantics/semantics.dart `SemanticsNode.debugFillProperties`
// prints a transform that is neither a translation nor a uniform scale as `$rect with transform
// [$matrix]`, the matrix being the first four lines of vector_math's `Matrix4.toString` (rows
// `x,y,z,w`) less their `[i] ` heads, joined by `; `; a long line wraps, indented two more.
const TRANSFORMED =
  'SemanticsNode#0\n' +
  ' │ Rect.fromLTRB(0.0, 0.0, 800.0, 1200.0)\n' +
  ' │\n' +
  ' └─SemanticsNode#1\n' +
  '   │ Rect.fromLTRB(0.0, 0.0, 400.0, 600.0) scaled by 2.0x\n' +
  '   │ textDirection: ltr\n' +
  '   │\n' +
  '   └─SemanticsNode#2\n' +
  '     │ Rect.fromLTRB(0.0, 0.0, 200.0, 100.0) with transform [0.5,0.0,0.0,150.0;\n' +
  '     │   0.0,0.5,0.0,275.0; 0.0,0.0,1.0,0.0; 0.0,0.0,0.0,1.0]\n' +
  '     │ actions: tap\n' +
  '     │ flags: isButton\n' +
  '     │ label: "Zoomed"\n' +
  '     │\n' +
  '     └─SemanticsNode#3\n' +
  '         Rect.fromLTRB(20.0, 10.0, 60.0, 30.0)\n' +
  '         actions: tap\n' +
  '         label: "Inner"\n'

describe("the semantics dump, read as Flutter's own tests print it", () => {
  it('reads the tree shape and ids from the sparse connectors', () => {
    const root = parseSemanticsDump(FLUTTER_TREE)!
    expect(root.id).toBe(7)
    expect(root.children.map((child) => child.id)).toEqual([1, 2, 4])
    expect(root.children[2]!.children.map((child) => child.id)).toEqual([5, 6])
    expect(root.children[2]!.children[0]!.children).toEqual([])
  })

  it('reads flags, actions, label and the rect of one node', () => {
    const node = parseSemanticsDump(FLUTTER_ALL_PROPERTIES)!
    expect([...node.flags]).toEqual(['hasCheckedState', 'isSelected', 'isButton', 'hasSelectedState'])
    expect([...node.actions]).toEqual(['longPress', 'scrollUp', 'showOnScreen'])
    expect(node.label).toBe('Use all the properties')
    expect(node.rect).toEqual({left: 60, top: 20, width: 20, height: 30})
  })

  it('joins a wrapped property line and drops the blocked marks', () => {
    expect([...parseSemanticsDump(FLUTTER_BLOCKED)!.actions]).toEqual([
      'didGainAccessibilityFocus',
      'longPress',
      'scrollUp',
      'showOnScreen',
    ])
  })

  it('places a node by its printed transform, and its children through it', () => {
    const root = parseSemanticsDump(TRANSFORMED)!
    const zoomed = root.children[0]!.children[0]!
    expect(zoomed.label).toBe('Zoomed')
    expect(zoomed.rect).toEqual({left: 150, top: 275, width: 100, height: 50})
    expect(zoomed.children[0]!.rect).toEqual({left: 160, top: 280, width: 20, height: 10})
  })

  it('says nothing is there when the framework generated no semantics', () => {
    expect(parseSemanticsDump('Semantics not generated.\nFor performance reasons, ...')).toBeUndefined()
  })
})

describe('text as a Dart string literal', () => {
  it('escapes what could end the literal or interpolate, and every non-ASCII character', () => {
    expect(dartString(`it's $x \\ "q"`)).toBe(`'it\\'s \\$x \\\\ "q"'`)
    expect(dartString('é\n👍')).toBe("'\\u{e9}\\u{a}\\u{1f44d}'")
  })
})
