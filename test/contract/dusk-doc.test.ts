import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {VERBS} from '../../src/lib/verbs/index.js'
import type {DuskFacts} from '../../src/lib/verbs/types.js'
import {ROOT} from '../helpers/cli.js'

const START = "<!-- dusk-wire:start (test/contract/dusk-doc.test.ts holds these rows to each verb's dusk facts) -->"
const END = '<!-- dusk-wire:end -->'

const names = (wire: Extract<DuskFacts, {on: 'driven'}>, rule: string) =>
  Object.entries(wire.params)
    .filter(([, each]) => each.rule === rule)
    .map(([name, each]) => (each.rule === 'sent' && each.as ? `\`${name}\` (as \`${each.as}\`)` : `\`${name}\``))

/** One row per verb: what an app on Dusk 0.0.1 gets of it. */
function row(verb: string, wire: DuskFacts): string {
  if (wire.on === 'refused') return `| \`tapir:${verb}\` | refused (exit 1) | 0.0.1 has no such call |`
  if (wire.on === 'unchanged') return `| \`tapir:${verb}\` | as for tapir | ${wire.note} |`
  const sent = names(wire, 'sent')
  const tapir = names(wire, 'tapir')
  const refused = names(wire, 'refused')
  const parts = [
    sent.length > 0 ? `sent: ${sent.join(', ')}` : 'no parameters',
    tapir.length > 0 ? `done in tapir: ${tapir.join(', ')}` : '',
    refused.length > 0 ? `refused unless at their default: ${refused.join(', ')}` : '',
    wire.note ?? '',
  ].filter(Boolean)
  return `| \`tapir:${verb}\` | \`ext.dusk.${wire.method}\` | ${parts.join('; ')} |`
}

export function duskRows(): string {
  return [...VERBS]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((verb) => row(verb.name, verb.dusk))
    .join('\n')
}

describe('docs/dusk.md: apps on Dusk 0.0.1', () => {
  it('lists every verb as its dusk facts drive it', () => {
    const page = readFileSync(join(ROOT, 'docs', 'dusk.md'), 'utf8')
    const start = page.indexOf(START)
    const end = page.indexOf(END)
    expect(start, 'docs/dusk.md has the dusk-wire block').toBeGreaterThan(-1)
    const block = page.slice(start + START.length, end).trim()
    const table = `| verb | on a Dusk 0.0.1 app | parameters |\n|---|---|---|\n${duskRows()}`
    expect(block).toBe(table)
  })
})
