import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {VERBS} from '../../src/lib/verbs/index.js'
import {ROOT} from '../helpers/cli.js'

// docs/zero-install.md's "Every tool" table: a row for each of the reference's 40 tools and each
// of tapir's own verbs, saying whether it works, works differently or is not available.

const spec = JSON.parse(readFileSync(join(ROOT, 'spec', 'tools.json'), 'utf8')) as {tools: Array<{name: string}>}
const doc = readFileSync(join(ROOT, 'docs', 'zero-install.md'), 'utf8')

/** The table's rows: the names in its first cell, and its second cell. */
const rows = doc
  .slice(doc.indexOf('## Every tool'))
  .split('\n')
  .filter((line) => line.startsWith('| `'))
  .map((line) => {
    const [first = '', status = ''] = line.split(' | ')
    return {names: [...first.matchAll(/`([^`]+)`/g)].map((match) => match[1]!), status: status.trim()}
  })

const rowOf = (name: string) => rows.find((row) => row.names.includes(name))

describe('docs/zero-install.md lists every tool', () => {
  it("has a row for each of the reference's tools", () => {
    expect(spec.tools).toHaveLength(40)
    for (const {name} of spec.tools) expect(rowOf(name), name).toBeDefined()
  })

  it("has a row for each of tapir's own verbs, by its MCP tool or its CLI name", () => {
    const own = VERBS.filter((verb) => verb.addition === true || verb.tool === undefined)
    expect(own.length).toBeGreaterThan(0)
    for (const verb of own) expect(rowOf(verb.tool ?? `tapir:${verb.name}`) ?? rowOf(`tapir:${verb.name}`), verb.name).toBeDefined()
  })

  it('says of each row that it works, works differently or is not available', () => {
    for (const row of rows) expect(['works', 'works differently', 'not available'], row.names.join(', ')).toContain(row.status)
  })
})
