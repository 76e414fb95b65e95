import type {Dialect, JsonMember, JsonNode} from './json-text.js'
import {JsonTextError, nodeValue, parseJsonText} from './json-text.js'

/** A config file as text, with what tapir needs of it: its servers object and tapir's entry in it. */
export interface ConfigText {
  /** The bytes one character each (latin1), a BOM included. */
  text: string
  root: Extract<JsonNode, {type: 'object'}> | undefined
  servers: JsonMember | undefined
  tapir: JsonMember | undefined
}

export class ConfigRefusal extends Error {}

const BOM = '\u00ef\u00bb\u00bf'

/** Reads a config's servers object (`key`). Refused: text that is not JSON in the client's
 *  dialect, a top level that is not an object, a servers value that is not one, and a key
 *  or a tapir entry given twice (which one a client reads is its own choice). */
export function readConfigText(bytes: Buffer, key: string, dialect: Dialect): ConfigText {
  const text = bytes.toString('latin1')
  const body = text.startsWith(BOM) ? BOM.length : 0
  if (/^[ \t\r\n]*$/.test(text.slice(body))) return {text, root: undefined, servers: undefined, tapir: undefined}
  let root: JsonNode
  try {
    root = parseJsonText(text, dialect, body)
  } catch (error) {
    if (error instanceof JsonTextError) throw new ConfigRefusal(`is not valid JSON (${error.message})`)
    throw error
  }
  if (root.type !== 'object') throw new ConfigRefusal('does not hold a JSON object')
  const servers = only(root.members, key, `"${key}" twice`)
  if (servers && servers.value.type !== 'object')
    throw new ConfigRefusal(
      `has a "${key}" that is not an object (${servers.value.type === 'array' ? 'an array' : `a ${servers.value.type}`})`,
    )
  const tapir = servers?.value.type === 'object' ? only(servers.value.members, 'tapir', `two "tapir" entries under "${key}"`) : undefined
  return {text, root, servers, tapir}
}

function only(members: JsonMember[], key: string, twice: string): JsonMember | undefined {
  const found = members.filter((member) => member.key === key)
  if (found.length > 1) throw new ConfigRefusal(`has ${twice}`)
  return found[0]
}

/** The value of tapir's entry as it stands. */
export const entryValue = (config: ConfigText): unknown => (config.tapir ? nodeValue(config.text, config.tapir.value) : undefined)

interface Layout {
  newline: string
  unit: string
}

/** The file's own line ending and indentation unit, so added lines look like their neighbours. */
function layout(text: string): Layout {
  const newline = text.includes('\r\n') ? '\r\n' : '\n'
  const indented = /\n([ \t]+)[^ \t\r\n]/.exec(text)?.[1]
  const unit = indented === undefined ? '  ' : indented.startsWith('\t') ? '\t' : ' '.repeat(Math.min(indented.length, 8))
  return {newline, unit}
}

/** The indentation of the line holding `at`. */
function lineIndent(text: string, at: number): string {
  const start = text.lastIndexOf('\n', at - 1) + 1
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? ''
}

const utf8Text = (value: string) => Buffer.from(value, 'utf8').toString('latin1')

/** `"name": value` formatted as one more member of `object`, and where it goes. */
function insertion(text: string, object: Extract<JsonNode, {type: 'object'}>, name: string, value: unknown, {newline, unit}: Layout) {
  const last = object.members.at(-1)
  const compact = !text.slice(object.start, object.end).includes('\n') && last !== undefined
  const indent = last ? lineIndent(text, last.keyStart) : lineIndent(text, object.start) + unit
  const member = (memberIndent: string) =>
    utf8Text(
      `${JSON.stringify(name)}: ${
        compact
          ? JSON.stringify(value)
          : JSON.stringify(value, null, unit)
              .split('\n')
              .join(newline + memberIndent)
      }`,
    )
  if (last) return {at: last.value.end, insert: `,${compact ? '' : newline + indent}${member(indent)}`}
  const inner = text.slice(object.start + 1, object.end - 1)
  const closing = lineIndent(text, object.start)
  if (/^[ \t\r\n]*$/.test(inner))
    return {at: object.start + 1, remove: inner.length, insert: `${newline}${indent}${member(indent)}${newline}${closing}`}
  return {at: object.end - 1, insert: `${newline}${indent}${member(indent)}${newline}${closing}`}
}

const splice = (text: string, at: number, remove: number, insert: string) => text.slice(0, at) + insert + text.slice(at + remove)

/** The text with tapir's entry set to `entry` under `key`: a new member at the end of the
 *  servers object (made when missing), or the old entry's value replaced; nothing else moves. */
export function withEntry(config: ConfigText, key: string, entry: unknown): string {
  const {text} = config
  const shape = layout(text)
  if (!config.root) {
    const body = text.startsWith(BOM) ? BOM : ''
    return `${body}${JSON.stringify({[key]: {tapir: entry}}, null, 2)
      .split('\n')
      .join(shape.newline)}${shape.newline}`
  }
  if (config.tapir) {
    const {value, keyStart} = config.tapir
    const indent = lineIndent(text, keyStart)
    return splice(
      text,
      value.start,
      value.end - value.start,
      utf8Text(
        JSON.stringify(entry, null, shape.unit)
          .split('\n')
          .join(shape.newline + indent),
      ),
    )
  }
  const servers = config.servers?.value
  if (servers?.type === 'object' && /^[ \t\r\n]*$/.test(text.slice(servers.start + 1, servers.end - 1))) {
    // Into a servers object the file already had empty, with no space after its brace: that is
    // how withoutEntry tells it from one it made, and leaves it as it was ({}).
    const indent = lineIndent(text, servers.start)
    const value = JSON.stringify(entry, null, shape.unit)
      .split('\n')
      .join(shape.newline + indent)
    return splice(text, servers.start + 1, 0, utf8Text(`"tapir": ${value}`))
  }
  const [object, name, value] = servers?.type === 'object' ? [servers, 'tapir', entry] : [config.root, key, {tapir: entry}]
  const {at, remove = 0, insert} = insertion(text, object, name, value, shape)
  return splice(text, at, remove, insert)
}

/** The text without tapir's entry: the span `withEntry` added, and with it the servers object
 *  when tapir was all it held and withEntry made it, so an install undone gives back the file's
 *  bytes. */
export function withoutEntry(config: ConfigText): string {
  const {text, servers, tapir, root} = config
  if (!tapir || !servers || servers.value.type !== 'object' || !root) return text
  const object = servers.value
  const inner = text.slice(object.start + 1, object.end - 1)
  const alone =
    object.members.length === 1 &&
    /^[ \t\r\n]*$/.test(inner.slice(0, tapir.keyStart - object.start - 1) + inner.slice(tapir.value.end - object.start - 1))
  // `{"tapir": ` straight after the brace is withEntry's entry in a servers object the file had.
  const hadServers = tapir.keyStart === object.start + 1 && /^"tapir": /.test(text.slice(tapir.keyStart))
  if (alone && hadServers) return splice(text, tapir.keyStart, tapir.value.end - tapir.keyStart, '')
  if (alone) return removeMember(text, root, servers)
  return removeMember(text, object, tapir)
}

function removeMember(text: string, object: Extract<JsonNode, {type: 'object'}>, member: JsonMember): string {
  const index = object.members.indexOf(member)
  const before = object.members[index - 1]
  const after = object.members[index + 1]
  const comma = (from: number, to: number) => /^[ \t\r\n]*,[ \t\r\n]*$/.test(text.slice(from, to))
  if (before && comma(before.value.end, member.keyStart)) return splice(text, before.value.end, member.value.end - before.value.end, '')
  if (after && comma(member.value.end, after.keyStart)) return splice(text, member.keyStart, after.keyStart - member.keyStart, '')
  if (before || after) throw new ConfigRefusal(`has comments beside its "${member.key}" entry: remove the entry by hand`)
  const inner = text.slice(object.start + 1, object.end - 1)
  const rest = inner.slice(0, member.keyStart - object.start - 1) + inner.slice(member.value.end - object.start - 1)
  return /^[ \t\r\n,]*$/.test(rest)
    ? splice(text, object.start + 1, inner.length, '')
    : splice(text, member.keyStart, member.value.end - member.keyStart, '')
}
