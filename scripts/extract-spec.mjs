#!/usr/bin/env node
// Regenerates spec/tools.json and spec/tapir-extensions.json from
// ../shared/spec/tapir-mcp-tool-reference.md: the facts the contract tests need (tool names,
// dispatch, parameters, types, required, defaults; the ext.tapir.* extensions the reference
// names, each with where it names it). The JSON is committed so `npm test` passes on a clone
// without ../shared.
import {existsSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const specPath = join(root, '..', 'shared', 'spec', 'tapir-mcp-tool-reference.md')
const outPath = join(root, 'spec', 'tools.json')
const extensionsPath = join(root, 'spec', 'tapir-extensions.json')

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

/**
 * The `ext.tapir.*` extensions the reference names, each with the section that names it and how:
 * `dispatch` (a tool's `Dispatch:` line) or `prose`, with the sentence. Prose names one in three
 * ways: as `ext.tapir.<name>`; in a sentence about "every `ext.tapir.*` verb" that lists others by
 * their bare name (the universal `framesForced` paragraph: `boot_id`, `semantics_hold`); and as
 * what mints a ref without a node ("a `find_by_text` entry", under tapir_set_checkbox).
 */
export function extractExtensions(markdown) {
  const found = new Map()
  const add = (name, section, from, quote) => {
    if (!found.has(name)) found.set(name, {name, section, from, ...(quote ? {quote} : {})})
  }
  const sections = markdown.split(/^## /m).slice(1)
  for (const section of sections) {
    const title = section.slice(0, section.indexOf('\n')).trim()
    const dispatch = /^Dispatch: `ext\.tapir\.([a-z_]+)`/m.exec(section)?.[1]
    if (dispatch) add(dispatch, title, 'dispatch')
  }
  for (const section of sections) {
    const title = section.slice(0, section.indexOf('\n')).trim()
    const body = section.slice(section.indexOf('\n') + 1).replace(/^Dispatch: [\s\S]*?(?=\n\n)/m, '')
    for (const sentence of sentencesOf(body)) {
      for (const [, name] of sentence.matchAll(/`ext\.tapir\.([a-z_]+)`/g)) add(name, title, 'prose', sentence)
      if (sentence.includes('`ext.tapir.*` verb'))
        for (const [, name] of sentence.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)) add(name, title, 'prose', sentence)
      for (const [, name] of sentence.matchAll(/minted without a node \(a `([a-z_]+)` entry\)/g)) add(name, title, 'prose', sentence)
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name))
}

/** The prose's sentences, each on one line (code blocks and table rows left out). */
function sentencesOf(body) {
  const prose = body
    .replace(/^```[\s\S]*?^```/gm, '')
    .split('\n')
    .filter((line) => !line.startsWith('|') && !line.startsWith('#'))
    .join(' ')
  return prose
    .split(/(?<=[.:])\s+(?=[A-Z`(])/)
    .map((sentence) => sentence.replace(/\s+/g, ' ').trim())
    .filter((sentence) => sentence !== '')
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
  const markdown = readFileSync(specPath, 'utf8')
  const tools = extractTools(markdown)
  writeJson(outPath, {source: 'tapir-mcp-tool-reference.md', tools})
  console.log(`✓ ${tools.length} tools written to spec/tools.json`)
  const extensions = extractExtensions(markdown)
  writeJson(extensionsPath, {source: 'tapir-mcp-tool-reference.md', prefix: 'ext.tapir.', extensions})
  console.log(`✓ ${extensions.length} extensions written to spec/tapir-extensions.json`)
}

function writeJson(path, value) {
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n')
  renameSync(tmp, path)
}
