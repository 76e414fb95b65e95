export type BinaryOperator = '+' | '-' | '*' | '/' | '~/' | '%' | '==' | '!=' | '<' | '>' | '<=' | '>=' | '&&' | '||' | '??'

/** The expression subset the simulated evaluator understands; `column` points compile errors at the source. */
export type Expr =
  | {
      readonly kind: 'literal'
      readonly type: 'int' | 'double' | 'String' | 'bool' | 'Null'
      readonly value: number | string | boolean | null
    }
  | {readonly kind: 'name'; readonly name: string; readonly column: number}
  | {readonly kind: 'get'; readonly target: Expr; readonly name: string; readonly nullAware: boolean; readonly column: number}
  | {readonly kind: 'nonNull'; readonly target: Expr}
  | {
      readonly kind: 'call'
      readonly callee: Expr
      readonly args: readonly Expr[]
      /** `name: value` arguments, in the order written. */
      readonly named: readonly NamedArg[]
      /** A generic method's type arguments (`<EditableTextState>`), by name. */
      readonly typeArgs: readonly TypeArg[]
      readonly column: number
    }
  | {readonly kind: 'unary'; readonly op: '-' | '!'; readonly operand: Expr; readonly column: number}
  | {readonly kind: 'binary'; readonly op: BinaryOperator; readonly left: Expr; readonly right: Expr; readonly column: number}
  | {readonly kind: 'throw'; readonly value: Expr}
  | {readonly kind: 'await'; readonly operand: Expr; readonly column: number}
  | {readonly kind: 'asyncClosure'; readonly body: Expr}
  /** `target..a()..b()`: each section runs on the target's value, and the cascade is that value. */
  | {readonly kind: 'cascade'; readonly target: Expr; readonly sections: readonly Expr[]}
  /** Where a cascade section starts: the cascade's target. */
  | {readonly kind: 'cascadeReceiver'; readonly column: number}

export interface NamedArg {
  readonly name: string
  readonly value: Expr
  readonly column: number
}

export interface TypeArg {
  readonly name: string
  readonly column: number
}
