#!/usr/bin/env node
// Regenerates spec/dusk-tools.json from ../shared/spec/dusk-mcp-tool-reference-0.0.1.md (the
// catalogue of Dusk 0.0.1, tapir's predecessor, as a page of plain text): the facts the contract
// test needs of every dusk_* tool (name, dispatch, parameters, types, required, defaults, enums,
// example arguments). The JSON is committed so `npm test` passes on a clone without ../shared.
import {existsSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const duskSpecPath = join(root, '..', 'shared', 'spec', 'dusk-mcp-tool-reference-0.0.1.md')
const outPath = join(root, 'spec', 'dusk-tools.json')

const PARAM_ROW = /^(\w+) (string|integer|number|boolean|array) (yes|no) ?(.*)$/

export function extractDuskTools(text) {
  const lines = text.split('\n').map((line) => line.trim())
  const starts = lines.flatMap((line, index) => (/^dusk_[a-z_]+$/.test(line) && lines[index + 2]?.startsWith('Dispatch: ') ? [index] : []))
  const tools = starts.map((start, at) => {
    const section = lines.slice(start, starts[at + 1] ?? lines.length)
    const name = section[0]
    const dispatch = section[2].slice('Dispatch: '.length).trim()
    const schema = section.slice(section.indexOf('Input schema') + 1, section.indexOf('Returns'))
    const params = schema.flatMap((line) => {
      const row = PARAM_ROW.exec(line)
      return row ? [paramOf(row[1], row[2], row[3] === 'yes', row[4])] : []
    })
    const example = section.slice(section.indexOf('Example call') + 1).find((line) => line.startsWith('{'))
    const call = example ? JSON.parse(example) : undefined
    if (call?.name !== name) throw new Error(`${name}: no example call of its own`)
    return {name, dispatch, params, example: call.arguments}
  })
  return tools.sort((a, b) => a.name.localeCompare(b.name))
}

function paramOf(name, type, required, description) {
  const param = {name, type, required}
  const fallback = defaultIn(description)
  if (fallback !== undefined) param.default = typed(fallback, type)
  const choices = enumIn(description)
  if (choices) param[type === 'array' ? 'items' : 'enum'] = choices
  return param
}

/** `"true" (default ...)`, `Default 50.`, `(default 1.0)`, `Minimum 100; default 200.` */
function defaultIn(description) {
  return /"([^"]+)" \(default\b/.exec(description)?.[1] ?? /\bdefault:?\s+(-?\d+(?:\.\d+)?|[a-z]+)\b/i.exec(description)?.[1] ?? undefined
}

/** `One of a, b, c.`, `Subset of a, b held`, `(INFO, WARNING, ERROR)`, `up, down, left, right.`,
 *  `jpeg or png.`, `"true" or "false"`. */
function enumIn(description) {
  const list = (text) => text.split(/,\s*|\s+or\s+/).map((item) => item.trim())
  const oneOf = /\bOne of (.+?)\.(?:\s|$)/.exec(description)?.[1]
  if (oneOf) return list(oneOf)
  const subset = /\bSubset of (.+?) held\b/.exec(description)?.[1]
  if (subset) return list(subset)
  const levels = /\(([A-Z]+(?:, [A-Z]+)+)\)/.exec(description)?.[1]
  if (levels) return list(levels)
  if (description.startsWith('"')) return [...description.split('.')[0].matchAll(/"([^"]+)"/g)].map((match) => match[1])
  const leading = /^([a-z]+(?:(?:, | or )[a-z]+)+)\./.exec(description)?.[1]
  return leading ? list(leading) : undefined
}

function typed(text, type) {
  if (type === 'boolean') return text === 'true'
  if (type === 'integer' || type === 'number') return Number(text)
  return text
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!existsSync(duskSpecPath)) {
    console.error(`✗ ${duskSpecPath} not found; spec/dusk-tools.json left as it is.`)
    process.exit(1)
  }
  const tools = extractDuskTools(readFileSync(duskSpecPath, 'utf8'))
  const tmp = `${outPath}.${process.pid}.tmp`
  writeFileSync(tmp, JSON.stringify({source: 'dusk-mcp-tool-reference-0.0.1.md', tools}, null, 2) + '\n')
  renameSync(tmp, outPath)
  console.log(`✓ ${tools.length} tools written to spec/dusk-tools.json`)
}
