import {describe, expect, it} from 'vitest'
import {parseSemanticsDump} from '../../src/lib/zero/semantics-dump.js'
import {createMonitorsApp} from '../../src/sim/app/index.js'

const RENDERING = 'package:flutter/src/rendering/binding.dart'
const EDITABLE = 'package:flutter/src/widgets/editable_text.dart'
const DUMP = 'ext.flutter.debugDumpSemanticsTreeInTraversalOrder'

/** A debug app with no package: semantics off until something holds a handle. */
function plainApp() {
  const app = createMonitorsApp({tapirPackage: false})
  const flutter = (method: string) => app.flutterExtension!(method, {})
  return {app, flutter}
}

describe("the sim's semantics views, in Flutter's formats", () => {
  it("answers rendering/binding.dart's `Semantics not generated` text while no handle is held", () => {
    const {flutter} = plainApp()
    expect(flutter(DUMP)).toEqual({
      data:
        'Semantics not generated.\n' +
        'For performance reasons, the framework only generates semantics when asked to do so by the platform.\n' +
        'Usually, platforms only ask for semantics when assistive technologies (like screen readers) are running.\n' +
        'To generate semantics, try turning on an assistive technology (like VoiceOver or TalkBack) on your device.',
    })
  })

  it('dumps toStringDeep in the sparse style once ensureSemantics holds a handle', () => {
    const {app, flutter} = plainApp()
    expect(app.evaluate('SemanticsBinding.instance.ensureSemantics()', RENDERING)).toMatchObject({
      kind: 'value',
      value: {className: 'SemanticsHandle'},
    })
    const text = String(flutter(DUMP).data)
    const lines = text.split('\n')
    // The root in physical pixels (400x800 at 2.0); a child of it at (24, 80) in the view has the
    // pixel ratio's scale times that offset for its transform (RenderView.applyPaintTransform, then
    // the box's offset), which is neither a translation nor a scale alone: `with transform`, wrapped.
    expect(lines.slice(0, 11)).toEqual([
      'SemanticsNode#0',
      ' │ Rect.fromLTRB(0.0, 0.0, 800.0, 1600.0)',
      ' │',
      ' ├─SemanticsNode#1',
      ' │   Rect.fromLTRB(0.0, 0.0, 352.0, 40.0) with transform',
      ' │     [2.0,0.0,0.0,48.0; 0.0,2.0,0.0,160.0; 0.0,0.0,1.0,0.0;',
      ' │     0.0,0.0,0.0,1.0]',
      ' │   flags: isHeader',
      ' │   label: "Sign in"',
      ' │   textDirection: ltr',
      ' │',
    ])
    // Every line is a node under a connector, a property under guides, or a guide.
    for (const line of lines.slice(1, -1)) expect(line).toMatch(/^(?:[ │]*[├└]─SemanticsNode#\d+|[ │]*(?: │ | {3})\S.*|[ │]* │)$/)
    const root = parseSemanticsDump(text)!
    expect(root.children.map((child) => child.label)).toEqual(['Sign in', 'Email', 'Password', 'Sign in', 'Forgot password?'])
    // A root child is placed through its printed transform; its pixel ratio is the view's.
    expect(root.children[0]!.rect).toEqual({left: 24, top: 80, width: 352, height: 40})
    expect(root.children[0]!.scale).toBe(2)
    // A nested node's rect is its parent's plus its own translation.
    expect(root.children[1]!.children[0]!.rect).toEqual({left: 36, top: 184, width: 328, height: 24})
  })

  it('getSemanticsTree takes its own handle: asks for a frame first, then answers the JSON tree', () => {
    const {flutter} = plainApp()
    expect(flutter('ext.flutter.accessibility.getSemanticsTree')).toEqual({error: 'rootSemanticsNode is null', needsFrame: true})
    const tree = flutter('ext.flutter.accessibility.getSemanticsTree') as {
      id: string
      rect: object
      children: Array<Record<string, unknown>>
    }
    expect(tree).toMatchObject({id: '0', rect: {left: 0, top: 0, width: 800, height: 1600}})
    expect(tree).not.toHaveProperty('transform')
    expect(tree.children[1]).toMatchObject({
      id: '2',
      label: 'Email',
      flags: ['isTextField', 'hasEnabledState', 'isEnabled'],
      actions: ['tap', 'focus'],
      // Matrix4.storage, column-major: the scale, then the offset in physical pixels.
      rect: {left: 0, top: 0},
      transform: [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 48, 320, 0, 1],
    })
    // The handle it took turned the dump on too.
    expect(String(flutter(DUMP).data)).toMatch(/^SemanticsNode#0\n/)
  })
})

describe("the sim's compiler over its model of Flutter's API", () => {
  const compile = (expression: string, library = RENDERING) => {
    const reply = createMonitorsApp({tapirPackage: false}).evaluate(expression, library)
    return reply.kind === 'compileError' ? reply.details.split('\n')[0] : reply.kind
  }

  it('refuses an unknown member, a missing required argument and a name the library does not see', () => {
    expect(compile('GestureBinding.instance.handlePointerEvnt(PointerUpEvent())')).toBe(
      "org-dartlang-debug:synthetic_debug_expression:1:25: Error: The method 'handlePointerEvnt' isn't defined for the class 'GestureBinding'.",
    )
    expect(compile('TextEditingValue(selection: TextSelection.collapsed())', EDITABLE)).toMatch(
      /Error: Required named parameter 'offset' must be provided\.$/,
    )
    expect(compile('FocusManager.instance.primaryFocus')).toMatch(/Error: Undefined name 'FocusManager'\.$/)
    expect(compile('FocusManager.instance.primaryFocus.context', EDITABLE)).toMatch(
      /Error: Property 'context' cannot be accessed on 'FocusNode\?' because it is potentially null\.$/,
    )
    expect(compile('GestureBinding.instance.handlePointerEvent(Offset(1.0, 2.0))')).toMatch(
      /The argument type 'Offset' can't be assigned to the parameter type 'PointerEvent'\.$/,
    )
    expect(compile('GestureBinding.instance.handlePointerEvent(PointerUpEvent(pointer: 1, position: Offset(1.0, 2.0)))')).toBe('value')
  })

  it("answers a constructor's fields as Flutter sets them, defaults included, never a silent null", () => {
    const value = (expression: string, library = RENDERING) => {
      const reply = createMonitorsApp({tapirPackage: false}).evaluate(expression, library)
      return reply.kind === 'value' ? reply.value : reply
    }
    // gestures/events.dart: PointerEvent's `this.pointer = 0`, `this.position = Offset.zero`.
    expect(value('PointerDownEvent(pointer: 7).position.dx')).toEqual({type: 'double', value: 0})
    expect(value('PointerDownEvent(position: Offset(1.0, 2.0)).pointer')).toEqual({type: 'int', value: 0})
    expect(value('PointerUpEvent(pointer: 7).pointer')).toEqual({type: 'int', value: 7})
    // services/text_editing.dart TextSelection.collapsed: baseOffset = extentOffset = offset.
    expect(value('TextSelection.collapsed(offset: 3).baseOffset', EDITABLE)).toEqual({type: 'int', value: 3})
    // services/text_input.dart TextEditingValue: text '' and a selection collapsed at -1 by default.
    expect(value('TextEditingValue().text', EDITABLE)).toEqual({type: 'String', value: ''})
    expect(value("TextEditingValue(text: 'ab').selection.extentOffset", EDITABLE)).toEqual({type: 'int', value: -1})
  })
})
