import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {COMMANDS} from '../../src/commands/list.js'
import {UsageError} from '../../src/lib/errors.js'
import {effectiveHints} from '../../src/lib/mcp/schema.js'
import {listTools} from '../../src/lib/mcp/server.js'
import {VERBS} from '../../src/lib/verbs/index.js'
import {BRIEF} from '../../src/lib/verbs/params.js'
import {WORDS} from '../../src/lib/verbs/words.js'
import {ROOT} from '../helpers/cli.js'
import {CLI_WORDS} from '../helpers/mcp-words.js'

/** What an agent reads before its first call, counted as issue 22 counts it. */
const BUDGET_BYTES = 25_000

describe('the MCP tool list', () => {
  const tools = listTools(COMMANDS)

  it(`is at most ${BUDGET_BYTES} bytes for the 40 tools of the reference, the 6 session tools, tapir_expect, tapir_a11y and tapir_trace_summary, as the compact JSON of the tools array`, () => {
    expect(tools).toHaveLength(49)
    expect(Buffer.byteLength(JSON.stringify(tools))).toBeLessThanOrEqual(BUDGET_BYTES)
  })

  it('is counted in docs/mcp.md as many as are served', () => {
    const page = readFileSync(join(ROOT, 'docs', 'mcp.md'), 'utf8')
    expect(page.match(/for the (\d+) tools/)?.[1]).toBe(String(tools.length))
  })

  it('gives every tool a title of its own, a few words long', () => {
    for (const tool of tools) expect(tool.title, tool.name).toMatch(/^[A-Z][\w -]{1,30}$/)
    expect(new Set(tools.map((tool) => tool.title)).size).toBe(tools.length)
  })

  it('gives every tool a description of one or two sentences', () => {
    for (const tool of tools) {
      expect(tool.description.length, tool.name).toBeLessThanOrEqual(160)
      expect(tool.description.split(/[.;]\s+(?=[A-Z])/).length, tool.name).toBeLessThanOrEqual(2)
    }
  })

  it('takes its annotations from the kind: reads are read-only, close_app and evaluate are not, held Chrome state is not idempotent', () => {
    // As a client reads them: a hint left out is at MCP's default.
    const hints = (name: string) => effectiveHints(tools.find((tool) => tool.name === name)!.annotations)
    for (const tool of tools) expect(tool.annotations.openWorldHint, tool.name).toBe(false)
    expect(tools.find((tool) => tool.name === 'tapir_snap')!.annotations).toEqual({readOnlyHint: true, openWorldHint: false})
    expect(hints('tapir_snap')).toEqual({readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false})
    expect(hints('tapir_close_app')).toMatchObject({readOnlyHint: false, destructiveHint: true, idempotentHint: false})
    expect(hints('tapir_evaluate')).toMatchObject({readOnlyHint: false, idempotentHint: false})
    for (const name of ['tapir_resize_viewport', 'tapir_device_profile']) expect(hints(name), name).toMatchObject({idempotentHint: false})
    expect(hints('tapir_fill')).toMatchObject({readOnlyHint: false, destructiveHint: false, idempotentHint: true})
    expect(hints('tapir_tap')).toMatchObject({readOnlyHint: false, destructiveHint: false, idempotentHint: false})
    expect(hints('tapir_perf_run')).toMatchObject({destructiveHint: true})
    expect(hints('tapir_stop')).toMatchObject({readOnlyHint: false, destructiveHint: true})
    expect(hints('tapir_start')).toMatchObject({readOnlyHint: false, destructiveHint: false})
    for (const name of ['tapir_status', 'tapir_doctor', 'tapir_devices']) expect(hints(name), name).toMatchObject({readOnlyHint: true})
  })

  it('words each shared parameter once, the same in every tool that has it', () => {
    const shared = {...BRIEF, startRef: BRIEF.ref, endRef: BRIEF.ref} as Record<string, string>
    let seen = 0
    for (const tool of tools) {
      const properties = tool.inputSchema.properties as Record<string, {description?: string}>
      for (const [name, property] of Object.entries(properties)) {
        if (!(name in shared) || (name === 'timeoutMs' && !tool.name.startsWith('tapir_wait_for'))) continue
        expect(property.description, `${tool.name}.${name}`).toBe(shared[name])
        seen++
      }
    }
    expect(seen).toBeGreaterThanOrEqual(45)
  })

  it('speaks MCP in every description: no flag, no tapir: command', () => {
    for (const tool of tools) {
      expect(tool.description, tool.name).not.toMatch(CLI_WORDS)
      for (const [name, property] of Object.entries(tool.inputSchema.properties as Record<string, {description?: string}>))
        expect(property.description ?? '', `${tool.name}.${name}`).not.toMatch(CLI_WORDS)
    }
  })
})

describe('the words each surface uses', () => {
  it('names every MCP tool of a verb as the catalogue does', () => {
    for (const verb of VERBS) if (verb.tool) expect(WORDS.mcp.call(verb.name), verb.name).toBe(verb.tool)
  })

  it('words a call, an argument and a parameter for the CLI and for MCP', () => {
    expect(WORDS.cli.call('device', {list: true})).toBe('tapir:device --list')
    expect(WORDS.mcp.call('device', {list: true})).toBe('tapir_device_profile with list: true')
    expect([WORDS.cli.arg('platform', 'sim'), WORDS.mcp.arg('platform', 'sim')]).toEqual(['--platform=sim', 'platform: "sim"'])
    expect(new UsageError((words) => `${words.param('ref')} first`).messageFor(WORDS.mcp)).toBe('ref first')
  })
})
