import type {Expr} from './ast.js'
import {CompileError} from './lexer.js'

/** Static types of the names the app's root library exposes. */
const GLOBALS: Readonly<Record<string, string>> = {Auth: 'Auth', monitors: 'List<Monitor>', currentRoute: 'String'}

/** dart:core constructors an expression may call, by the type they make. */
const CONSTRUCTORS: ReadonlySet<string> = new Set(['StateError', 'Exception', 'ArgumentError'])

const GETTERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Auth: {user: 'User?'},
  User: {email: 'String', name: 'String'},
  'List<Monitor>': {length: 'int', first: 'Monitor', last: 'Monitor', isEmpty: 'bool', isNotEmpty: 'bool'},
  Monitor: {id: 'int', name: 'String', paused: 'bool'},
  String: {length: 'int', isEmpty: 'bool', isNotEmpty: 'bool'},
}

const NUMERIC = new Set(['int', 'double'])
const ARITHMETIC = new Set(['-', '*', '/', '~/', '%'])

const nullable = (type: string): boolean => type.endsWith('?') || type === 'Null'
const nonNull = (type: string): string => (type.endsWith('?') ? type.slice(0, -1) : type)
const asNullable = (type: string): string => (nullable(type) ? type : `${type}?`)

/** The front end's type check: undefined names, unknown getters and unchecked nullable access are compile errors. */
export function staticType(expr: Expr, inAsync = false): string {
  switch (expr.kind) {
    case 'literal':
      return expr.type
    case 'name': {
      const type = GLOBALS[expr.name] ?? (CONSTRUCTORS.has(expr.name) ? `new ${expr.name}` : undefined)
      if (type === undefined) throw new CompileError(expr.column, expr.name.length, `Undefined name '${expr.name}'.`)
      return type
    }
    case 'get':
      return getterType(expr, staticType(expr.target, inAsync))
    case 'nonNull':
      return nonNull(staticType(expr.target, inAsync))
    case 'call': {
      const callee = staticType(expr.callee, inAsync)
      expr.args.forEach((arg) => staticType(arg, inAsync))
      if (callee.startsWith('new ')) return callee.slice(4)
      if (callee === 'Function') return 'Future<dynamic>'
      throw new CompileError(expr.column, 1, "The expression doesn't evaluate to a function, so it can't be invoked.")
    }
    case 'unary': {
      const operand = staticType(expr.operand, inAsync)
      if (expr.op === '!' ? operand === 'bool' : NUMERIC.has(operand)) return operand
      throw new CompileError(expr.column, 1, `The operator '${expr.op === '-' ? 'unary-' : '!'}' isn't defined for the class '${operand}'.`)
    }
    case 'binary':
      return binaryType(expr, staticType(expr.left, inAsync), staticType(expr.right, inAsync))
    case 'throw':
      staticType(expr.value, inAsync)
      return 'Never'
    case 'await':
      if (!inAsync) throw new CompileError(expr.column, 5, "'await' can only be used in 'async' or 'async*' methods.")
      return staticType(expr.operand, inAsync)
    case 'asyncClosure':
      staticType(expr.body, true)
      return 'Function'
    case 'cascade':
    case 'cascadeReceiver':
      throw new CompileError(1, 1, "This expression is not supported by the evaluator of the app's root library.")
  }
}

function getterType(expr: Extract<Expr, {kind: 'get'}>, target: string): string {
  if (nullable(target) && !expr.nullAware) {
    throw new CompileError(
      expr.column,
      expr.name.length,
      `Property '${expr.name}' cannot be accessed on '${target}' because it is potentially null.\nTry accessing using ?. instead.`,
    )
  }
  const type = GETTERS[nonNull(target)]?.[expr.name]
  if (type === undefined) {
    const message =
      target === 'Auth'
        ? `Member not found: 'Auth.${expr.name}'.`
        : `The getter '${expr.name}' isn't defined for the class '${nonNull(target)}'.`
    throw new CompileError(expr.column, expr.name.length, message)
  }
  return expr.nullAware ? asNullable(type) : type
}

function binaryType(expr: Extract<Expr, {kind: 'binary'}>, left: string, right: string): string {
  const {op} = expr
  if (op === '==' || op === '!=') return 'bool'
  if (op === '??') return nullable(left) ? (nonNull(left) === right ? right : 'Object') : left
  if (op === '&&' || op === '||') {
    const wrong = [left, right].find((t) => t !== 'bool')
    if (wrong !== undefined)
      throw new CompileError(expr.column, op.length, `A value of type '${wrong}' can't be assigned to a variable of type 'bool'.`)
    return 'bool'
  }
  if (op === '+' && left === 'String') {
    if (right !== 'String')
      throw new CompileError(expr.column, 1, `The argument type '${right}' can't be assigned to the parameter type 'String'.`)
    return 'String'
  }
  if (NUMERIC.has(left) && NUMERIC.has(right)) {
    if (['<', '>', '<=', '>='].includes(op)) return 'bool'
    if (op === '/') return 'double'
    if (op === '~/') return 'int'
    return left === 'int' && right === 'int' ? 'int' : 'double'
  }
  if (NUMERIC.has(left) && (ARITHMETIC.has(op) || op === '+')) {
    throw new CompileError(expr.column, op.length, `The argument type '${right}' can't be assigned to the parameter type 'num'.`)
  }
  throw new CompileError(expr.column, op.length, `The operator '${op}' isn't defined for the class '${nonNull(left)}'.`)
}
