export type TokenKind = 'int' | 'double' | 'string' | 'identifier' | 'punct' | 'end'

export interface Token {
  readonly kind: TokenKind
  readonly text: string
  /** The literal's value for int, double and string tokens. */
  readonly value?: number | string
  /** 1-based column of the token's first character. */
  readonly column: number
}

/** A Dart compile error at a column, worded as the front end words it. */
export class CompileError extends Error {
  constructor(
    readonly column: number,
    readonly length: number,
    message: string,
  ) {
    super(message)
  }
}

const PUNCTUATION = [
  '?.',
  '??',
  '~/',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '=>',
  '..',
  '(',
  ')',
  '.',
  '!',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  ',',
  ':',
]

export function tokenize(source: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < source.length) {
    const ch = source[i]!
    const column = i + 1
    if (/\s/.test(ch)) {
      i++
    } else if (/[0-9]/.test(ch)) {
      const match = /^[0-9]+(\.[0-9]+)?/.exec(source.slice(i))![0]
      tokens.push({kind: match.includes('.') ? 'double' : 'int', text: match, value: Number(match), column})
      i += match.length
    } else if (/[A-Za-z_$]/.test(ch)) {
      const match = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(source.slice(i))![0]
      tokens.push({kind: 'identifier', text: match, column})
      i += match.length
    } else if (ch === "'" || ch === '"') {
      const {value, end} = readString(source, i)
      tokens.push({kind: 'string', text: source.slice(i, end), value, column})
      i = end
    } else {
      const punct = PUNCTUATION.find((p) => source.startsWith(p, i))
      if (punct === undefined) throw new CompileError(column, 1, `The character '${ch}' isn't valid here.`)
      tokens.push({kind: 'punct', text: punct, column})
      i += punct.length
    }
  }
  tokens.push({kind: 'end', text: '', column: source.length + 1})
  return tokens
}

const ESCAPES: Readonly<Record<string, string>> = {n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', $: '$'}

function readString(source: string, start: number): {value: string; end: number} {
  const quote = source[start]!
  let value = ''
  let i = start + 1
  while (i < source.length && source[i] !== quote) {
    if (source[i] === '\\' && source[i + 1] === 'u') {
      const braced = /^\\u\{([0-9A-Fa-f]{1,6})\}/.exec(source.slice(i))
      const plain = /^\\u([0-9A-Fa-f]{4})/.exec(source.slice(i))
      const escape = braced ?? plain
      if (escape === null)
        throw new CompileError(
          i + 1,
          2,
          "An escape sequence starting with '\\u' must be followed by 4 hexadecimal digits or from 1 to 6 digits between '{' and '}'.",
        )
      value += String.fromCodePoint(parseInt(escape[1]!, 16))
      i += escape[0].length
    } else if (source[i] === '$') {
      throw new CompileError(i + 1, 1, 'String interpolation is not supported by this evaluator.')
    } else if (source[i] === '\\' && i + 1 < source.length) {
      value += ESCAPES[source[i + 1]!] ?? source[i + 1]!
      i += 2
    } else {
      value += source[i]!
      i++
    }
  }
  if (i >= source.length) throw new CompileError(start + 1, 1, `String starting with ${quote} must end with ${quote}.`)
  return {value, end: i + 1}
}
