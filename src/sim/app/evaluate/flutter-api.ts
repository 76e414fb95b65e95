// The part of Flutter's API the sim's debug app exposes to `evaluate`, transcribed from
// flutter/flutter's sources (paths under packages/flutter/lib/src/ unless dart:ui):
// - GestureBinding: gestures/binding.dart, `static GestureBinding get instance`,
//   `void handlePointerEvent(PointerEvent event)`.
// - PointerDownEvent / PointerMoveEvent / PointerUpEvent: gestures/events.dart, their const
//   constructors' named parameters (as read in the search index's copy that declares them with
//   super parameters; its revision is not known here: viewId, timeStamp,
//   pointer, kind, device, position, [delta on move], buttons, obscured, pressure, ..., embedderId).
// - Offset: dart:ui geometry.dart, `const Offset(double dx, double dy)`.
// - SemanticsBinding: semantics/binding.dart, `static SemanticsBinding get instance`,
//   `SemanticsHandle ensureSemantics()`; SemanticsHandle `void dispose()`.
// - FocusManager: widgets/focus_manager.dart, `static FocusManager get instance`,
//   `FocusNode? get primaryFocus`; FocusNode `BuildContext? get context`.
// - BuildContext: widgets/framework.dart, `T? findAncestorStateOfType<T extends State>()`.
// - EditableTextState: widgets/editable_text.dart, `TextEditingValue get textEditingValue`,
//   `void userUpdateTextEditingValue(TextEditingValue value, SelectionChangedCause? cause)`.
// - TextEditingValue: services/text_input.dart, `const TextEditingValue({String text = '',
//   TextSelection selection = ..., TextRange composing = ...})`, `final String text`.
// - TextSelection: services/text_editing.dart, `const TextSelection.collapsed({required int
//   offset, TextAffinity affinity = TextAffinity.downstream})`.
// - SelectionChangedCause: services/text_input.dart (enum, beside TextSelectionDelegate): tap, doubleTap, longPress, forcePress,
//   keyboard, toolbar, drag, stylusHandwriting.
// - PointerHoverEvent: gestures/events.dart (the same copy), `const PointerHoverEvent({viewId,
//   timeStamp, kind, pointer, device, position, delta, buttons, obscured, pressureMin, pressureMax,
//   distance, distanceMax, size, radiusMajor, radiusMinor, radiusMin, radiusMax, orientation, tilt,
//   synthesized, embedderId})` (no `pressure`: the constructor passes 0.0 itself).
// - kPrimaryButton = 0x01, kSecondaryButton = 0x02: gestures/events.dart top-level constants.
// - PointerDeviceKind: dart:ui pointer.dart (enum): touch, mouse, stylus, invertedStylus, trackpad,
//   unknown; gestures/events.dart re-exports it with Offset.
// - FocusNode `void unfocus({UnfocusDisposition disposition = UnfocusDisposition.scope})` and the
//   enum UnfocusDisposition (scope, previouslyFocusedChild): widgets/focus_manager.dart.
// - NavigatorState: widgets/navigator.dart, `class NavigatorState extends State<Navigator>`,
//   `Future<bool> maybePop<T extends Object?>([T? result])`.
// Calls on an instance may be cascaded (`GestureBinding.instance..handlePointerEvent(a)..handlePointerEvent(b)`),
// as Dart's grammar allows: each section runs on the target, and the cascade's value is the target.
// Which names a library sees is its imports: rendering/binding.dart imports gestures.dart and
// semantics.dart; widgets/editable_text.dart imports focus_manager.dart, framework.dart, services
// and rendering; widgets/navigator.dart declares NavigatorState and imports focus_manager.dart and
// framework.dart.

export interface NamedParam {
  readonly type: string
  readonly required?: boolean
}

export interface Signature {
  readonly returns: string
  readonly positional?: readonly string[]
  /** How many of the positional ones are required (default all). */
  readonly requiredPositional?: number
  readonly named?: Readonly<Record<string, NamedParam>>
  /** A generic method: its one type parameter, bounded by this class. */
  readonly typeParameterBound?: string
}

export interface ApiClass {
  readonly statics?: Readonly<Record<string, string>>
  readonly getters?: Readonly<Record<string, string>>
  readonly methods?: Readonly<Record<string, Signature>>
  readonly unnamed?: Signature
  readonly namedConstructors?: Readonly<Record<string, Signature>>
  /** Enum values, of the enum's own type. */
  readonly values?: readonly string[]
  readonly supertype?: string
}

const POINTER_COMMON: Readonly<Record<string, NamedParam>> = {
  viewId: {type: 'int'},
  timeStamp: {type: 'Duration'},
  pointer: {type: 'int'},
  kind: {type: 'PointerDeviceKind'},
  device: {type: 'int'},
  position: {type: 'Offset'},
  buttons: {type: 'int'},
  obscured: {type: 'bool'},
  pressure: {type: 'double'},
  pressureMin: {type: 'double'},
  pressureMax: {type: 'double'},
  distanceMax: {type: 'double'},
  size: {type: 'double'},
  radiusMajor: {type: 'double'},
  radiusMinor: {type: 'double'},
  radiusMin: {type: 'double'},
  radiusMax: {type: 'double'},
  orientation: {type: 'double'},
  tilt: {type: 'double'},
  embedderId: {type: 'int'},
}

const HOVER_NAMED: Readonly<Record<string, NamedParam>> = {
  ...Object.fromEntries(Object.entries(POINTER_COMMON).filter(([name]) => name !== 'pressure')),
  delta: {type: 'Offset'},
  distance: {type: 'double'},
  synthesized: {type: 'bool'},
}

/** Top-level constants, with their values. */
export const CONSTANTS: Readonly<Record<string, {readonly type: string; readonly value: number}>> = {
  kPrimaryButton: {type: 'int', value: 0x01},
  kSecondaryButton: {type: 'int', value: 0x02},
}

export const API: Readonly<Record<string, ApiClass>> = {
  GestureBinding: {
    statics: {instance: 'GestureBinding'},
    methods: {handlePointerEvent: {returns: 'void', positional: ['PointerEvent']}},
  },
  PointerEvent: {getters: {position: 'Offset', pointer: 'int'}},
  PointerDownEvent: {supertype: 'PointerEvent', unnamed: {returns: 'PointerDownEvent', named: POINTER_COMMON}},
  PointerMoveEvent: {
    supertype: 'PointerEvent',
    unnamed: {
      returns: 'PointerMoveEvent',
      named: {...POINTER_COMMON, delta: {type: 'Offset'}, platformData: {type: 'int'}, synthesized: {type: 'bool'}},
    },
  },
  PointerHoverEvent: {
    supertype: 'PointerEvent',
    unnamed: {returns: 'PointerHoverEvent', named: HOVER_NAMED},
  },
  PointerDeviceKind: {values: ['touch', 'mouse', 'stylus', 'invertedStylus', 'trackpad', 'unknown']},
  PointerUpEvent: {supertype: 'PointerEvent', unnamed: {returns: 'PointerUpEvent', named: {...POINTER_COMMON, distance: {type: 'double'}}}},
  Offset: {unnamed: {returns: 'Offset', positional: ['double', 'double']}, getters: {dx: 'double', dy: 'double'}},
  SemanticsBinding: {statics: {instance: 'SemanticsBinding'}, methods: {ensureSemantics: {returns: 'SemanticsHandle'}}},
  SemanticsHandle: {methods: {dispose: {returns: 'void'}}},
  FocusManager: {statics: {instance: 'FocusManager'}, getters: {primaryFocus: 'FocusNode?'}},
  FocusNode: {
    getters: {context: 'BuildContext?', hasPrimaryFocus: 'bool'},
    methods: {unfocus: {returns: 'void', named: {disposition: {type: 'UnfocusDisposition'}}}},
  },
  UnfocusDisposition: {values: ['scope', 'previouslyFocusedChild']},
  NavigatorState: {
    supertype: 'State',
    methods: {maybePop: {returns: 'Future<bool>', positional: ['Object?'], requiredPositional: 0}},
  },
  BuildContext: {methods: {findAncestorStateOfType: {returns: 'T?', typeParameterBound: 'State'}}},
  State: {},
  EditableTextState: {
    supertype: 'State',
    getters: {textEditingValue: 'TextEditingValue'},
    methods: {userUpdateTextEditingValue: {returns: 'void', positional: ['TextEditingValue', 'SelectionChangedCause?']}},
  },
  TextEditingValue: {
    unnamed: {
      returns: 'TextEditingValue',
      named: {text: {type: 'String'}, selection: {type: 'TextSelection'}, composing: {type: 'TextRange'}},
    },
    getters: {text: 'String', selection: 'TextSelection'},
  },
  TextSelection: {
    namedConstructors: {
      collapsed: {returns: 'TextSelection', named: {offset: {type: 'int', required: true}, affinity: {type: 'TextAffinity'}}},
    },
    getters: {baseOffset: 'int', extentOffset: 'int'},
  },
  SelectionChangedCause: {values: ['tap', 'doubleTap', 'longPress', 'forcePress', 'keyboard', 'toolbar', 'drag', 'stylusHandwriting']},
}

/** The classes each library's scope holds (its imports), for the libraries the isolate lists. */
export const LIBRARY_SCOPES: Readonly<Record<string, readonly string[]>> = {
  'package:flutter/src/rendering/binding.dart': [
    'GestureBinding',
    'PointerEvent',
    'PointerDownEvent',
    'PointerMoveEvent',
    'PointerUpEvent',
    'PointerHoverEvent',
    'PointerDeviceKind',
    'kPrimaryButton',
    'kSecondaryButton',
    'Offset',
    'SemanticsBinding',
    'SemanticsHandle',
  ],
  'package:flutter/src/widgets/navigator.dart': [
    'FocusManager',
    'FocusNode',
    'UnfocusDisposition',
    'BuildContext',
    'State',
    'NavigatorState',
  ],
  'package:flutter/src/widgets/editable_text.dart': [
    'FocusManager',
    'FocusNode',
    'BuildContext',
    'State',
    'EditableTextState',
    'TextEditingValue',
    'TextSelection',
    'SelectionChangedCause',
    'Offset',
  ],
}

/** Whether a value of type `from` may be passed where `to` is declared (int literals widen to double). */
export function assignable(from: string, to: string): boolean {
  if (from === to || to === 'dynamic' || to === 'Object?') return true
  if (to.endsWith('?')) return from === 'Null' || assignable(from, to.slice(0, -1))
  if (from === 'int' && to === 'double') return true
  const cls = API[from]
  return cls?.supertype !== undefined && assignable(cls.supertype, to)
}
