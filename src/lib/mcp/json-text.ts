/** JSON (and the JSONC some clients read) as text with positions, so a config can be edited in
 *  place: every byte outside the span tapir changes stays as it was, numbers beyond a double,
 *  duplicate keys and bytes that are not UTF-8 included. The text is the file's bytes one
 *  character each (latin1), so positions are byte offsets and nothing is decoded on the way. */

export type JsonNode =
  | {type: 'object'; start: number; end: number; members: JsonMember[]}
  | {type: 'array'; start: number; end: number; items: JsonNode[]}
  | {type: 'string' | 'number' | 'literal'; start: number; end: number}

export interface JsonMember {
  /** The key, decoded; keyStart is where its opening quote is. */
  key: string
  keyStart: number
  value: JsonNode
}

export interface Dialect {
  /** `//` and `/* *\/` comments, as VS Code's and Gemini CLI's readers allow. */
  comments: boolean
  /** A comma after the last member or item, as VS Code's reader allows. */
  trailingCommas: boolean
}

/** Deeper than any config: a hostile file is refused before the stack is at risk. */
export const MAX_DEPTH = 256

export class JsonTextError extends Error {}

const WHITESPACE = new Set([' ', '\t', '\n', '\r'])

/** Parses `text` (a latin1 view of the bytes, after any BOM) into nodes with their positions. */
export function parseJsonText(text: string, dialect: Dialect, from = 0): JsonNode {
  let at = from
  const fail = (what: string): never => {
    const line = text.slice(0, at).split('\n').length
    throw new JsonTextError(`${what} at line ${line}`)
  }
  const skip = () => {
    for (;;) {
      while (WHITESPACE.has(text[at] ?? '')) at++
      if (text[at] !== '/') return
      if (!dialect.comments) fail('a comment, which this client does not read in this file,')
      if (text[at + 1] === '/') {
        while (at < text.length && text[at] !== '\n') at++
      } else if (text[at + 1] === '*') {
        const close = text.indexOf('*/', at + 2)
        if (close < 0) fail('an unclosed comment')
        at = close + 2
      } else fail('a stray /')
    }
  }
  const string = (): string => {
    const start = at++
    for (;;) {
      const char = text[at]
      if (char === undefined) fail('an unclosed string')
      else if (char === '"') break
      else if (char === '\\') {
        const escaped = text[at + 1] ?? ''
        if (escaped === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) fail('a bad \\u escape')
          at += 6
        } else if ('"\\/bfnrt'.includes(escaped) && escaped !== '') at += 2
        else fail('a bad escape')
      } else if (char.charCodeAt(0) < 0x20) fail('a control character in a string')
      else at++
    }
    at++
    return JSON.parse(Buffer.from(text.slice(start, at), 'latin1').toString('utf8')) as string
  }
  const value = (depth: number): JsonNode => {
    if (depth > MAX_DEPTH) fail(`values nested deeper than ${MAX_DEPTH} levels`)
    skip()
    const start = at
    const char = text[at]
    if (char === '{' || char === '[') {
      const object = char === '{'
      const close = object ? '}' : ']'
      const members: JsonMember[] = []
      const items: JsonNode[] = []
      at++
      skip()
      while (text[at] !== close) {
        if (members.length + items.length > 0) {
          if (text[at] !== ',') fail(`a missing , or ${close}`)
          at++
          skip()
          if (text[at] === close && dialect.trailingCommas) break
        }
        if (object) {
          if (text[at] !== '"') fail('a key that is not a string')
          const keyStart = at
          const key = string()
          skip()
          if (text[at] !== ':') fail('a missing :')
          at++
          members.push({key, keyStart, value: value(depth + 1)})
        } else items.push(value(depth + 1))
        skip()
      }
      at++
      return object ? {type: 'object', start, end: at, members} : {type: 'array', start, end: at, items}
    }
    if (char === '"') {
      string()
      return {type: 'string', start, end: at}
    }
    const number = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(text.slice(at, at + 4096))
    if (number) {
      at += number[0].length
      return {type: 'number', start, end: at}
    }
    for (const literal of ['true', 'false', 'null'])
      if (text.startsWith(literal, at)) {
        at += literal.length
        return {type: 'literal', start, end: at}
      }
    return fail(char === undefined ? 'an unexpected end' : 'an unexpected character')
  }
  const root = value(1)
  skip()
  if (at < text.length) fail('text after the value')
  return root
}

/** The value of a node, for comparing an entry with tapir's own (its comments dropped). */
export function nodeValue(text: string, node: JsonNode): unknown {
  if (node.type === 'object') {
    const object: Record<string, unknown> = {}
    for (const member of node.members)
      Object.defineProperty(object, member.key, {
        value: nodeValue(text, member.value),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    return object
  }
  if (node.type === 'array') return node.items.map((item) => nodeValue(text, item))
  return JSON.parse(Buffer.from(text.slice(node.start, node.end), 'latin1').toString('utf8'))
}
