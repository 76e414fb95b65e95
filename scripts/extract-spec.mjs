#!/usr/bin/env node
// Regenerates spec/tools.json from ../shared/spec/tapir-mcp-tool-reference.md: the facts the
// contract test needs (tool names, dispatch, parameters, types, required, defaults).
// The JSON is committed so `npm test` passes on a clone without ../shared.
import {existsSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const specPath = join(root, '..', 'shared', 'spec', 'tapir-mcp-tool-reference.md')
const outPath = join(root, 'spec', 'tools.json')

export function extractTools(markdown) {
  const sections = markdown.split(/^## /m).slice(1)
  const tools = []
  for (const section of sections) {
    const name = section.slice(0, section.indexOf('\n')).trim()
    if (!/^tapir_[a-z_]+$/.test(name)) continue
    const dispatch = /^Dispatch: `([^`]+)`/m.exec(section)?.[1] ?? null
    tools.push({name, dispatch, params: extractParams(section)})
  }
  return tools.sort((a, b) => a.name.localeCompare(b.name))
}

function extractParams(section) {
  const schema = section.split(/^### Input schema/m)[1]?.split(/^### /m)[0] ?? ''
  const rows = schema.split('\n').filter((line) => line.startsWith('|'))
  if (rows.length < 2) return []
  const header = cells(rows[0]).map((cell) => cell.toLowerCase())
  const params = []
  for (const row of rows.slice(2)) {
    const cols = cells(row)
    const field = (label) => cols[header.indexOf(label)] ?? ''
    const name = /`([^`]+)`/.exec(field('parameter'))?.[1]
    if (!name) continue
    const description = field('description') || field('meaning')
    const param = {name, type: field('type'), required: field('required') === 'yes'}
    const fallback = header.includes('default') ? /`([^`]+)`/.exec(field('default'))?.[1] : defaultIn(description)
    if (fallback !== undefined) param.default = typed(fallback, param.type)
    params.push(param)
  }
  return params
}

function defaultIn(description) {
  return (
    /`([^`]+)` \(the default\)/.exec(description)?.[1] ??
    /`"?([^`"]+)"?` \(default\b/.exec(description)?.[1] ??
    /\bdefault[:\s]+`([^`]+)`/i.exec(description)?.[1] ??
    /\(default `([^`]+)`\)/i.exec(description)?.[1]
  )
}

function typed(text, type) {
  if (type === 'boolean') return text === 'true'
  if (type === 'integer' || type === 'number') return Number(text)
  return text
}

function cells(row) {
  return row
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim())
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!existsSync(specPath)) {
    console.error(`✗ ${specPath} not found; spec/tools.json left as it is.`)
    process.exit(1)
  }
  const tools = extractTools(readFileSync(specPath, 'utf8'))
  const tmp = `${outPath}.${process.pid}.tmp`
  writeFileSync(tmp, JSON.stringify({source: 'tapir-mcp-tool-reference.md', tools}, null, 2) + '\n')
  renameSync(tmp, outPath)
  console.log(`✓ ${tools.length} tools written to spec/tools.json`)
}
