import type {Monitor} from '../state.js'
import type {BinaryOperator, Expr} from './ast.js'
import {DartThrow, NULL, dartToString, throwable, type DartValue} from './values.js'

/** What the root library's globals read from the running app. */
export interface AppGlobals {
  readonly user: {readonly email: string} | null
  readonly monitors: readonly Monitor[]
  readonly currentRoute: string
}

const THROWABLE_PREFIX: Readonly<Record<string, string>> = {
  StateError: 'Bad state: ',
  Exception: 'Exception: ',
  ArgumentError: 'Invalid argument(s): ',
}

/** Evaluates a type-checked expression; a Dart throw escapes as DartThrow. */
export function run(expr: Expr, globals: AppGlobals): DartValue {
  const recur = (e: Expr): DartValue => run(e, globals)
  switch (expr.kind) {
    case 'literal':
      return literal(expr)
    case 'name':
      return global(expr.name, globals)
    case 'get': {
      const target = recur(expr.target)
      return target.t === 'Null' && expr.nullAware ? NULL : getter(target, expr.name)
    }
    case 'nonNull': {
      const value = recur(expr.target)
      if (value.t === 'Null') throw throwable('_TypeError', 'Null check operator used on a null value')
      return value
    }
    case 'call': {
      const callee = recur(expr.callee)
      if (callee.t === 'function') return {t: 'future'}
      const name = callee.t === 'type' ? callee.name : 'Exception'
      const message = expr.args[0] === undefined ? '' : dartToString(recur(expr.args[0]))
      return {t: 'throwable', cls: name, text: message === '' ? name : `${THROWABLE_PREFIX[name] ?? ''}${message}`}
    }
    case 'unary': {
      const operand = recur(expr.operand)
      if (operand.t === 'bool') return {t: 'bool', v: !operand.v}
      if (operand.t === 'int' || operand.t === 'double') return {t: operand.t, v: -operand.v}
      return operand
    }
    case 'binary':
      return binary(expr.op, recur(expr.left), () => recur(expr.right))
    case 'throw':
      throw new DartThrow(recur(expr.value))
    case 'await':
      return recur(expr.operand)
    case 'asyncClosure':
      return {t: 'function'}
    case 'cascade':
    case 'cascadeReceiver':
      return NULL
  }
}

function literal(expr: Extract<Expr, {kind: 'literal'}>): DartValue {
  switch (expr.type) {
    case 'int':
    case 'double':
      return {t: expr.type, v: expr.value as number}
    case 'String':
      return {t: 'String', v: expr.value as string}
    case 'bool':
      return {t: 'bool', v: expr.value as boolean}
    case 'Null':
      return NULL
  }
}

function global(name: string, globals: AppGlobals): DartValue {
  if (name === 'monitors') return {t: 'list', items: globals.monitors.map(monitorValue)}
  if (name === 'currentRoute') return {t: 'String', v: globals.currentRoute}
  if (name === 'Auth') return {t: 'type', name, statics: {user: userValue(globals.user)}}
  return {t: 'type', name}
}

function userValue(user: AppGlobals['user']): DartValue {
  if (user === null) return NULL
  return {t: 'object', cls: 'User', fields: {email: {t: 'String', v: user.email}, name: {t: 'String', v: user.email.split('@')[0]!}}}
}

function monitorValue(m: Monitor): DartValue {
  return {t: 'object', cls: 'Monitor', fields: {id: {t: 'int', v: m.id}, name: {t: 'String', v: m.name}, paused: {t: 'bool', v: m.paused}}}
}

function getter(target: DartValue, name: string): DartValue {
  if (target.t === 'object') return target.fields[name] ?? NULL
  if (target.t === 'type') return target.statics?.[name] ?? NULL
  if (target.t === 'String')
    return name === 'length' ? {t: 'int', v: target.v.length} : {t: 'bool', v: (target.v === '') === (name === 'isEmpty')}
  if (target.t === 'list') {
    if (name === 'length') return {t: 'int', v: target.items.length}
    if (name === 'isEmpty' || name === 'isNotEmpty') return {t: 'bool', v: (target.items.length === 0) === (name === 'isEmpty')}
    const item = name === 'first' ? target.items[0] : target.items[target.items.length - 1]
    if (item === undefined) throw throwable('StateError', 'Bad state: No element')
    return item
  }
  return NULL
}

function binary(op: BinaryOperator, left: DartValue, right: () => DartValue): DartValue {
  if (op === '&&') return left.t === 'bool' && !left.v ? left : right()
  if (op === '||') return left.t === 'bool' && left.v ? left : right()
  if (op === '??') return left.t === 'Null' ? right() : left
  const r = right()
  if (op === '==' || op === '!=') return {t: 'bool', v: same(left, r) === (op === '==')}
  if (left.t === 'String' && r.t === 'String') return {t: 'String', v: left.v + r.v}
  if ((left.t !== 'int' && left.t !== 'double') || (r.t !== 'int' && r.t !== 'double')) return NULL
  const bothInt = left.t === 'int' && r.t === 'int'
  const number = (v: number): DartValue => ({t: bothInt ? 'int' : 'double', v})
  switch (op) {
    case '+':
      return number(left.v + r.v)
    case '-':
      return number(left.v - r.v)
    case '*':
      return number(left.v * r.v)
    case '/':
      return {t: 'double', v: left.v / r.v}
    case '~/':
      if (r.v === 0) throw throwable('IntegerDivisionByZeroException', 'IntegerDivisionByZeroException')
      return {t: 'int', v: Math.trunc(left.v / r.v)}
    case '%':
      if (bothInt && r.v === 0) throw throwable('IntegerDivisionByZeroException', 'IntegerDivisionByZeroException')
      return number(((left.v % r.v) + Math.abs(r.v)) % Math.abs(r.v))
    default:
      return {t: 'bool', v: compare(op, left.v, r.v)}
  }
}

function compare(op: BinaryOperator, a: number, b: number): boolean {
  if (op === '<') return a < b
  if (op === '>') return a > b
  if (op === '<=') return a <= b
  return a >= b
}

function same(a: DartValue, b: DartValue): boolean {
  if (a.t === 'Null' || b.t === 'Null') return a.t === b.t
  if ('v' in a && 'v' in b) return a.v === b.v
  return a === b
}
