import type {BinaryOperator, Expr, NamedArg, TypeArg} from './ast.js'
import {CompileError, tokenize, type Token} from './lexer.js'

/** Binding power of each binary operator, loosest first, as in Dart's grammar. */
const PRECEDENCE: ReadonlyArray<readonly BinaryOperator[]> = [
  ['??'],
  ['||'],
  ['&&'],
  ['==', '!='],
  ['<', '>', '<=', '>='],
  ['+', '-'],
  ['*', '/', '~/', '%'],
]

export function parse(source: string): Expr {
  const parser = new Parser(tokenize(source))
  const expr = parser.expression()
  parser.expectEnd()
  return expr
}

class Parser {
  private at = 0

  constructor(private readonly tokens: readonly Token[]) {}

  expression(): Expr {
    if (this.peekIs('throw')) {
      this.next()
      return {kind: 'throw', value: this.expression()}
    }
    const target = this.binary(0)
    if (!this.peekPunct('..')) return target
    // A cascade (Dart's `cascade` rule): sections of selectors on the target, each from `..`.
    const sections: Expr[] = []
    while (this.peekPunct('..')) {
      const dots = this.next()
      const name = this.identifier()
      const receiver: Expr = {kind: 'cascadeReceiver', column: dots.column}
      sections.push(this.postfix({kind: 'get', target: receiver, name: name.text, nullAware: false, column: name.column}))
    }
    return {kind: 'cascade', target, sections}
  }

  expectEnd(): void {
    const token = this.peek()
    if (token.kind !== 'end') throw new CompileError(token.column, token.text.length, `Unexpected token '${token.text}'.`)
  }

  private binary(level: number): Expr {
    if (level === PRECEDENCE.length) return this.unary()
    let left = this.binary(level + 1)
    for (;;) {
      const token = this.peek()
      const op = PRECEDENCE[level]!.find((o) => token.kind === 'punct' && token.text === o)
      if (op === undefined) return left
      this.next()
      left = {kind: 'binary', op, left, right: this.binary(level + 1), column: token.column}
    }
  }

  private unary(): Expr {
    const token = this.peek()
    if (token.kind === 'punct' && (token.text === '-' || token.text === '!')) {
      this.next()
      return {kind: 'unary', op: token.text, operand: this.unary(), column: token.column}
    }
    if (this.peekIs('await')) {
      this.next()
      return {kind: 'await', operand: this.unary(), column: token.column}
    }
    return this.postfix(this.primary())
  }

  private postfix(expr: Expr): Expr {
    for (;;) {
      const token = this.peek()
      if (token.kind !== 'punct') return expr
      if (token.text === '.' || token.text === '?.') {
        this.next()
        const name = this.identifier()
        expr = {kind: 'get', target: expr, name: name.text, nullAware: token.text === '?.', column: name.column}
      } else if (token.text === '!') {
        this.next()
        expr = {kind: 'nonNull', target: expr}
      } else if (token.text === '(') {
        this.next()
        expr = {kind: 'call', callee: expr, ...this.arguments(), typeArgs: [], column: token.column}
      } else if (token.text === '<' && this.typeArgumentsAhead()) {
        this.next()
        const typeArgs: TypeArg[] = []
        for (;;) {
          const name = this.identifier()
          typeArgs.push({name: name.text, column: name.column})
          if (!this.peekPunct(',')) break
          this.next()
        }
        this.expectPunct('>')
        const open = this.peek()
        this.expectPunct('(')
        expr = {kind: 'call', callee: expr, ...this.arguments(), typeArgs, column: open.column}
      } else {
        return expr
      }
    }
  }

  /** `<Name, ...>(`: type arguments of a generic call, not a comparison. */
  private typeArgumentsAhead(): boolean {
    let at = this.at + 1
    for (;;) {
      if (this.tokens[at]?.kind !== 'identifier') return false
      const after = this.tokens[at + 1]
      if (after?.text === ',') at += 2
      else return after?.text === '>' && this.tokens[at + 2]?.text === '('
    }
  }

  private arguments(): {args: Expr[]; named: NamedArg[]} {
    const args: Expr[] = []
    const named: NamedArg[] = []
    while (!this.peekPunct(')')) {
      const token = this.peek()
      if (token.kind === 'identifier' && this.tokens[this.at + 1]?.text === ':') {
        this.next()
        this.next()
        named.push({name: token.text, value: this.expression(), column: token.column})
      } else {
        if (named.length > 0)
          throw new CompileError(token.column, Math.max(1, token.text.length), 'Place positional arguments before named arguments.')
        args.push(this.expression())
      }
      if (!this.peekPunct(')')) this.expectPunct(',')
    }
    this.expectPunct(')')
    return {args, named}
  }

  private primary(): Expr {
    const token = this.next()
    if (token.kind === 'int') return {kind: 'literal', type: 'int', value: token.value as number}
    if (token.kind === 'double') return {kind: 'literal', type: 'double', value: token.value as number}
    if (token.kind === 'string') return {kind: 'literal', type: 'String', value: token.value as string}
    if (token.kind === 'identifier') {
      if (token.text === 'true' || token.text === 'false') return {kind: 'literal', type: 'bool', value: token.text === 'true'}
      if (token.text === 'null') return {kind: 'literal', type: 'Null', value: null}
      return {kind: 'name', name: token.text, column: token.column}
    }
    if (token.kind === 'punct' && token.text === '(') {
      if (this.peekPunct(')') && this.tokens[this.at + 1]?.text === 'async') return this.asyncClosure()
      const inner = this.expression()
      this.expectPunct(')')
      return inner
    }
    throw new CompileError(token.column, Math.max(1, token.text.length), `Expected an identifier, but got '${token.text}'.`)
  }

  /** `() async => body`, the wrapper tapir puts around an expression that awaits. */
  private asyncClosure(): Expr {
    this.expectPunct(')')
    this.next()
    this.expectPunct('=>')
    return {kind: 'asyncClosure', body: this.expression()}
  }

  private identifier(): Token {
    const token = this.next()
    if (token.kind !== 'identifier')
      throw new CompileError(token.column, Math.max(1, token.text.length), `Expected an identifier, but got '${token.text}'.`)
    return token
  }

  private expectPunct(text: string): void {
    const token = this.next()
    if (token.kind !== 'punct' || token.text !== text) {
      throw new CompileError(token.column, Math.max(1, token.text.length), `Expected '${text}' before this.`)
    }
  }

  private peek(): Token {
    return this.tokens[this.at]!
  }

  private peekIs(word: string): boolean {
    return this.peek().kind === 'identifier' && this.peek().text === word
  }

  private peekPunct(text: string): boolean {
    return this.peek().kind === 'punct' && this.peek().text === text
  }

  private next(): Token {
    const token = this.tokens[this.at]!
    if (token.kind !== 'end') this.at++
    return token
  }
}
