import type {AppValue, EvaluateReply} from '../../app-contract.js'
import type {AppModel} from '../app-model.js'
import {primaryFocus} from '../focus.js'
import {popOutermost} from '../handlers/navigate-back.js'
import type {Expr} from './ast.js'
import {compileDetails} from './compile-details.js'
import {API, assignable, CONSTANTS, LIBRARY_SCOPES, type Signature} from './flutter-api.js'
import {CompileError} from './lexer.js'
import {parse} from './parser.js'
import {NULL, dartToString, type DartValue} from './values.js'

/**
 * An expression in one of Flutter's libraries: checked as the front end would against the API
 * model (an unknown class, member or named argument is a compile error), then run on the app.
 */
export function evaluateInFlutter(app: AppModel, expression: string, library: string): EvaluateReply {
  const scope = LIBRARY_SCOPES[library]
  if (scope === undefined) return {kind: 'compileError', details: `Library not found: ${library}`}
  let parsed: Expr
  try {
    parsed = parse(expression)
    new Checker(scope).type(parsed)
  } catch (error) {
    if (error instanceof CompileError) return {kind: 'compileError', details: compileDetails(expression, error)}
    throw error
  }
  const value = new Runner(app).run(parsed)
  return {kind: 'value', value: toAppValue(value)}
}

const LIBRARY_OF: Readonly<Record<string, string>> = {
  SemanticsHandle: 'package:flutter/src/semantics/binding.dart',
  TextEditingValue: 'package:flutter/src/services/text_input.dart',
  Offset: 'dart:ui',
  _Future: 'dart:async',
}

function toAppValue(value: DartValue): AppValue {
  switch (value.t) {
    case 'String':
      return {type: 'String', value: value.v}
    case 'int':
    case 'double':
      return {type: value.t, value: value.v}
    case 'bool':
      return {type: 'bool', value: value.v}
    case 'future':
      return {type: 'object', className: '_Future', library: LIBRARY_OF._Future!, text: "Instance of '_Future<bool>'"}
    case 'object':
      return {type: 'object', className: value.cls, library: LIBRARY_OF[value.cls] ?? 'package:flutter', text: dartToString(value)}
    default:
      return {type: 'Null'}
  }
}

/** Whether a `?.` appears along the member chain an expression ends. */
function shorts(expr: Expr): boolean {
  if (expr.kind === 'get') return expr.nullAware || shorts(expr.target)
  if (expr.kind === 'call') return shorts(expr.callee)
  return false
}

const nullable = (type: string): boolean => type.endsWith('?') || type === 'Null'
const nonNull = (type: string): string => (type.endsWith('?') ? type.slice(0, -1) : type)

/** The front end's checks over the API model, worded as the CFE words them. */
class Checker {
  /** The static types of the cascades being checked, innermost last. */
  private readonly receivers: string[] = []

  constructor(private readonly scope: readonly string[]) {}

  /** An expression's static type; a `?.` anywhere in its chain makes the whole chain nullable
   *  (Dart's null-shorting), while inside the chain each member keeps its declared type. */
  type(expr: Expr): string {
    const type = this.inner(expr)
    return shorts(expr) && !nullable(type) && type !== 'void' ? `${type}?` : type
  }

  private inner(expr: Expr): string {
    switch (expr.kind) {
      case 'literal':
        return expr.type
      case 'name':
        if (!this.scope.includes(expr.name)) throw new CompileError(expr.column, expr.name.length, `Undefined name '${expr.name}'.`)
        return CONSTANTS[expr.name]?.type ?? `class ${expr.name}`
      case 'nonNull':
        return nonNull(this.type(expr.target))
      case 'get':
        return this.getter(expr)
      case 'call':
        return this.call(expr)
      case 'cascade': {
        const target = this.type(expr.target)
        // A class name is a Type object here: its static members are not reached through `..`.
        if (target.startsWith('class ') || target.startsWith('ctor ')) {
          const first = expr.sections[0]
          const name = first?.kind === 'get' ? first : first?.kind === 'call' && first.callee.kind === 'get' ? first.callee : undefined
          throw new CompileError(
            name?.column ?? 1,
            name?.name.length ?? 1,
            `The getter '${name?.name ?? ''}' isn't defined for the class 'Type'.`,
          )
        }
        this.receivers.push(target)
        for (const section of expr.sections) this.type(section)
        this.receivers.pop()
        return target
      }
      case 'cascadeReceiver':
        return this.receivers.at(-1)!
      case 'unary': {
        const operand = this.type(expr.operand)
        if (expr.op === '-' && (operand === 'int' || operand === 'double')) return operand
        if (expr.op === '!' && operand === 'bool') return operand
        throw new CompileError(
          expr.column,
          1,
          `The operator '${expr.op === '-' ? 'unary-' : '!'}' isn't defined for the class '${operand}'.`,
        )
      }
      default:
        throw new CompileError(1, 1, 'This expression is not supported by the evaluator of Flutter libraries.')
    }
  }

  private getter(expr: Extract<Expr, {kind: 'get'}>): string {
    const target = this.inner(expr.target)
    if (target.startsWith('class ')) {
      const name = target.slice(6)
      const cls = API[name]!
      const type = cls.statics?.[expr.name] ?? (cls.values?.includes(expr.name) ? name : undefined)
      if (type !== undefined) return type
      if (cls.namedConstructors?.[expr.name] !== undefined) return `ctor ${name}.${expr.name}`
      throw new CompileError(expr.column, expr.name.length, `Member not found: '${name}.${expr.name}'.`)
    }
    if (nullable(target) && !expr.nullAware) {
      throw new CompileError(
        expr.column,
        expr.name.length,
        `Property '${expr.name}' cannot be accessed on '${target}' because it is potentially null.\nTry accessing using ?. instead.`,
      )
    }
    const type = this.member(nonNull(target), (cls) => cls.getters?.[expr.name])
    if (type === undefined)
      throw new CompileError(expr.column, expr.name.length, `The getter '${expr.name}' isn't defined for the class '${nonNull(target)}'.`)
    return type
  }

  private call(expr: Extract<Expr, {kind: 'call'}>): string {
    const {callee} = expr
    if (callee.kind === 'name') {
      const type = this.type(callee)
      const name = type.slice(6)
      const ctor = API[name]?.unnamed
      if (ctor === undefined) throw new CompileError(callee.column, callee.name.length, `Method not found: '${name}'.`)
      return this.arguments(expr, ctor, name)
    }
    if (callee.kind !== 'get')
      throw new CompileError(expr.column, 1, "The expression doesn't evaluate to a function, so it can't be invoked.")
    const target = this.inner(callee.target)
    if (target.startsWith('class ')) {
      const ctorType = this.getter(callee)
      if (!ctorType.startsWith('ctor '))
        throw new CompileError(expr.column, 1, "The expression doesn't evaluate to a function, so it can't be invoked.")
      const [cls, named] = ctorType.slice(5).split('.') as [string, string]
      return this.arguments(expr, API[cls]!.namedConstructors![named]!, `${cls}.${named}`)
    }
    if (nullable(target) && !callee.nullAware) {
      throw new CompileError(
        callee.column,
        callee.name.length,
        `Method '${callee.name}' cannot be called on '${target}' because it is potentially null.\nTry calling using ?. instead.`,
      )
    }
    const signature = this.member(nonNull(target), (cls) => cls.methods?.[callee.name])
    if (signature === undefined)
      throw new CompileError(
        callee.column,
        callee.name.length,
        `The method '${callee.name}' isn't defined for the class '${nonNull(target)}'.`,
      )
    let returns = this.arguments(expr, signature, callee.name)
    if (signature.typeParameterBound !== undefined) {
      const [arg, ...extra] = expr.typeArgs
      if (arg === undefined || extra.length > 0) throw new CompileError(expr.column, 1, `Expected 1 type arguments.`)
      if (!this.scope.includes(arg.name)) throw new CompileError(arg.column, arg.name.length, `Type '${arg.name}' not found.`)
      if (!assignable(arg.name, signature.typeParameterBound))
        throw new CompileError(
          arg.column,
          arg.name.length,
          `Type argument '${arg.name}' doesn't conform to the bound '${signature.typeParameterBound}' of the type variable 'T' on 'findAncestorStateOfType'.`,
        )
      returns = returns.replace('T', arg.name)
    }
    return returns
  }

  private arguments(expr: Extract<Expr, {kind: 'call'}>, signature: Signature, name: string): string {
    const positional = signature.positional ?? []
    const required = signature.requiredPositional ?? positional.length
    if (expr.args.length > positional.length)
      throw new CompileError(
        expr.column,
        1,
        `Too many positional arguments: ${positional.length} allowed, but ${expr.args.length} found.\nTry removing the extra positional arguments.`,
      )
    if (expr.args.length < required)
      throw new CompileError(expr.column, 1, `Too few positional arguments: ${required} required, ${expr.args.length} given.`)
    expr.args.forEach((arg, index) => this.argument(arg, positional[index]!))
    const named = signature.named ?? {}
    const given = new Set<string>()
    for (const arg of expr.named) {
      // The front end's DuplicatedNamedArgument (dart-lang/sdk pkg/front_end/lib/src/codes/cfe_codes_generated.dart).
      if (given.has(arg.name)) throw new CompileError(arg.column, arg.name.length, `Duplicated named argument '${arg.name}'.`)
      given.add(arg.name)
      const param = named[arg.name]
      if (param === undefined) throw new CompileError(arg.column, arg.name.length, `No named parameter with the name '${arg.name}'.`)
      this.argument(arg.value, param.type)
    }
    for (const [param, {required: must}] of Object.entries(named)) {
      if (must === true && !expr.named.some((arg) => arg.name === param))
        throw new CompileError(expr.column, 1, `Required named parameter '${param}' must be provided.`)
    }
    if (expr.typeArgs.length > 0 && signature.typeParameterBound === undefined)
      throw new CompileError(expr.typeArgs[0]!.column, 1, `Expected 0 type arguments.`)
    void name
    return signature.returns
  }

  private argument(arg: Expr, declared: string): void {
    const type = this.type(arg)
    const intLiteral = arg.kind === 'literal' && arg.type === 'int' && nonNull(declared) === 'double'
    if (!intLiteral && !assignable(type, declared))
      throw new CompileError(1, 1, `The argument type '${type}' can't be assigned to the parameter type '${declared}'.`)
  }

  private member<T>(type: string, pick: (cls: NonNullable<(typeof API)[string]>) => T | undefined): T | undefined {
    for (let name: string | undefined = type; name !== undefined; name = API[name]?.supertype) {
      const cls = API[name]
      if (cls === undefined) return undefined
      const found = pick(cls)
      if (found !== undefined) return found
    }
    return undefined
  }
}

const num = (v: number): DartValue => ({t: 'double', v})
const str = (v: string): DartValue => ({t: 'String', v})

/** Runs a checked expression on the app: what each API member does to its state. */
class Runner {
  /** The values of the cascades being run, innermost last. */
  private readonly receivers: DartValue[] = []

  constructor(private readonly app: AppModel) {}

  run(expr: Expr): DartValue {
    switch (expr.kind) {
      case 'literal':
        if (expr.type === 'Null') return NULL
        if (expr.type === 'String') return str(expr.value as string)
        if (expr.type === 'bool') return {t: 'bool', v: expr.value as boolean}
        return {t: expr.type, v: expr.value as number}
      case 'name': {
        const constant = CONSTANTS[expr.name]
        return constant === undefined ? {t: 'type', name: expr.name} : {t: 'int', v: constant.value}
      }
      case 'nonNull':
        return this.run(expr.target)
      case 'get': {
        const target = this.run(expr.target)
        if (target.t === 'Null') return NULL
        return this.get(target, expr.name)
      }
      case 'call':
        return this.call(expr)
      case 'cascade': {
        const target = this.run(expr.target)
        this.receivers.push(target)
        for (const section of expr.sections) this.run(section)
        this.receivers.pop()
        return target
      }
      case 'cascadeReceiver':
        return this.receivers.at(-1)!
      case 'unary': {
        const operand = this.run(expr.operand)
        if (operand.t === 'int' || operand.t === 'double') return {t: operand.t, v: -operand.v}
        return operand.t === 'bool' ? {t: 'bool', v: !operand.v} : operand
      }
      default:
        return NULL
    }
  }

  private get(target: DartValue, name: string): DartValue {
    if (target.t === 'type') {
      if (name === 'instance') return {t: 'object', cls: target.name, fields: {}}
      if (API[target.name]?.values?.includes(name)) return {t: 'object', cls: target.name, fields: {name: str(name)}}
      return {t: 'type', name: `${target.name}.${name}`}
    }
    if (target.t !== 'object') return NULL
    if (target.cls === 'FocusManager' && name === 'primaryFocus') {
      // With no field or control focused, the top route's FocusScopeNode holds focus: a route asks
      // for it when pushed or added (widgets/navigator.dart Route.didPush / didAdd), and unfocus
      // with UnfocusDisposition.scope hands it back there.
      const focus = primaryFocus(this.app)
      return {t: 'object', cls: 'FocusNode', fields: focus?.kind === 'field' ? {field: str(focus.field)} : {}}
    }
    if (target.cls === 'FocusNode' && name === 'context') return {t: 'object', cls: 'BuildContext', fields: target.fields}
    if (target.cls === 'FocusNode' && name === 'hasPrimaryFocus') return {t: 'bool', v: true}
    if (target.cls === 'EditableTextState' && name === 'textEditingValue') {
      const field = fieldOf(target)
      return {
        t: 'object',
        cls: 'TextEditingValue',
        fields: {text: str(this.app.state.fields[field as keyof typeof this.app.state.fields] ?? '')},
      }
    }
    return target.fields[name] ?? NULL
  }

  private call(expr: Extract<Expr, {kind: 'call'}>): DartValue {
    const named = Object.fromEntries(expr.named.map((arg) => [arg.name, this.run(arg.value)]))
    const args = expr.args.map((arg) => this.run(arg))
    const {callee} = expr
    if (callee.kind === 'name') {
      if (callee.name === 'Offset') return {t: 'object', cls: 'Offset', fields: {dx: toDouble(args[0]), dy: toDouble(args[1])}}
      return constructed(callee.name, named)
    }
    if (callee.kind !== 'get') return NULL
    const target = this.run(callee.target)
    if (target.t === 'Null') return NULL
    if (target.t === 'type') return constructed(`${target.name}.${callee.name}`, named)
    if (target.t !== 'object') return NULL
    switch (`${target.cls}.${callee.name}`) {
      case 'GestureBinding.handlePointerEvent':
        this.pointerEvent(args[0]!)
        return NULL
      case 'SemanticsBinding.ensureSemantics':
        this.app.semanticsHandles++
        return {t: 'object', cls: 'SemanticsHandle', fields: {}}
      case 'SemanticsHandle.dispose':
        this.app.semanticsHandles = Math.max(0, this.app.semanticsHandles - 1)
        return NULL
      case 'BuildContext.findAncestorStateOfType':
        // Every focus node's context lies under a route, so under a Navigator.
        if (expr.typeArgs[0]?.name === 'NavigatorState') return {t: 'object', cls: 'NavigatorState', fields: {}}
        return expr.typeArgs[0]?.name === 'EditableTextState' && target.fields.field !== undefined
          ? {t: 'object', cls: 'EditableTextState', fields: target.fields}
          : NULL
      case 'FocusNode.unfocus':
        this.app.on.unfocus()
        this.app.pump()
        return NULL
      case 'NavigatorState.maybePop':
        popOutermost(this.app)
        this.app.pump()
        return {t: 'future'}
      case 'EditableTextState.userUpdateTextEditingValue': {
        const value = args[0]
        const text = value?.t === 'object' ? value.fields.text : undefined
        this.app.on.enterText(fieldOf(target) as never, text?.t === 'String' ? text.v : '')
        this.app.pump()
        return NULL
      }
      default:
        return NULL
    }
  }

  /** `GestureBinding.handlePointerEvent`: the event as the gesture arena sees it. */
  private pointerEvent(event: DartValue): void {
    if (event.t !== 'object') return
    const {pointer, buttons, kind} = event.fields
    this.app.arena.handle({
      cls: event.cls,
      pointer: pointer?.t === 'int' ? pointer.v : 0,
      position: pointOf(event.fields.position),
      buttons: buttons?.t === 'int' ? buttons.v : 0,
      mouse: kind?.t === 'object' && kind.fields.name?.t === 'String' && kind.fields.name.v === 'mouse',
    })
  }
}

const int = (v: number): DartValue => ({t: 'int', v})
const offsetZero: DartValue = {t: 'object', cls: 'Offset', fields: {dx: num(0), dy: num(0)}}
const collapsedAt = (offset: DartValue): DartValue => ({
  t: 'object',
  cls: 'TextSelection',
  fields: {baseOffset: offset, extentOffset: offset},
})

/** What a constructor of the model leaves in its fields: the arguments given over the defaults
 *  Flutter declares. gestures/events.dart: PointerEvent's `this.pointer = 0`, `this.position =
 *  Offset.zero`, PointerDownEvent's `super.buttons = kPrimaryButton`; services/text_input.dart:
 *  TextEditingValue's `this.text = ''`, `this.selection = const TextSelection.collapsed(offset: -1)`;
 *  services/text_editing.dart: TextSelection.collapsed sets baseOffset and extentOffset to offset. */
function constructed(ctor: string, named: Record<string, DartValue>): DartValue {
  const pointer = {pointer: int(0), position: offsetZero}
  switch (ctor) {
    case 'PointerDownEvent':
      return {t: 'object', cls: ctor, fields: {...pointer, buttons: int(1), ...named}}
    case 'PointerMoveEvent':
    case 'PointerUpEvent':
    case 'PointerHoverEvent':
      return {t: 'object', cls: ctor, fields: {...pointer, ...named}}
    case 'TextEditingValue':
      return {t: 'object', cls: ctor, fields: {text: str(''), selection: collapsedAt(int(-1)), ...named}}
    case 'TextSelection.collapsed':
      return collapsedAt(named.offset ?? int(0))
    default:
      return {t: 'object', cls: ctor, fields: named}
  }
}

function fieldOf(state: Extract<DartValue, {t: 'object'}>): string {
  const field = state.fields.field
  return field?.t === 'String' ? field.v : ''
}

function toDouble(value: DartValue | undefined): DartValue {
  return value !== undefined && (value.t === 'int' || value.t === 'double') ? num(value.v) : num(0)
}

function pointOf(value: DartValue | undefined): {x: number; y: number} {
  if (value?.t !== 'object') return {x: 0, y: 0}
  const dx = value.fields.dx
  const dy = value.fields.dy
  return {x: dx?.t === 'double' || dx?.t === 'int' ? dx.v : 0, y: dy?.t === 'double' || dy?.t === 'int' ? dy.v : 0}
}
