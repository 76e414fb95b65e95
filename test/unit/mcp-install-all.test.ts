import {chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {type PlannedInstall, planInstall, writeAll} from '../../src/lib/mcp/install.js'
import {tempDir} from '../helpers/cli.js'

const BIN = '/opt/tapir/bin/run.cjs'
const server = {command: 'node', args: [BIN, 'mcp:serve']}

let project: {path: string; remove(): void}
beforeEach(() => {
  project = tempDir('tapir-mcp-all-')
})
afterEach(() => project.remove())
const path = (file: string) => join(project.path, file)
const plan = (client: 'claude' | 'cursor' | 'vscode' | 'gemini') => planInstall(client, project.path, server, BIN)

describe('mcp:install --client=all writes every file or none', () => {
  it('a write that fails after the others puts them back: the changed file as it was, the new file and its folder gone', () => {
    writeFileSync(path('.mcp.json'), '{"mcpServers": {"other": {"command": "x"}}}\n')
    mkdirSync(path('.vscode'))
    writeFileSync(path('.vscode/mcp.json'), '{}')
    const plans = [plan('claude'), plan('cursor'), plan('vscode')]
    // someone saves the VS Code file after it was read: its write is refused
    writeFileSync(path('.vscode/mcp.json'), '{"servers": {}}')
    expect(() => writeAll(plans)).toThrow(
      `${path('.vscode/mcp.json')} changed while tapir worked: run tapir mcp:install again. Nothing was written.`,
    )
    expect(readFileSync(path('.mcp.json'), 'utf8')).toBe('{"mcpServers": {"other": {"command": "x"}}}\n')
    expect(existsSync(path('.cursor'))).toBe(false)
    expect(readFileSync(path('.vscode/mcp.json'), 'utf8')).toBe('{"servers": {}}')
  })

  it('a file that cannot be put back is named with what was written, never "Nothing was written"', () => {
    const plans: PlannedInstall[] = [plan('claude'), plan('cursor')]
    const cursor = plans[1] as PlannedInstall
    plans[1] = {
      ...cursor,
      write() {
        // the user edits .mcp.json after tapir wrote it, then the next write fails
        writeFileSync(path('.mcp.json'), '{"edited": true}')
        mkdirSync(path('.cursor'))
        writeFileSync(path('.cursor/mcp.json'), '{}')
        chmodSync(path('.cursor/mcp.json'), 0o444)
        cursor.write()
      },
    }
    let message = ''
    try {
      writeAll(plans)
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).not.toContain('Nothing was written')
    expect(message).toMatch(
      /^Refusing to write .*\.cursor\/mcp\.json: it is read-only\. .* then run tapir mcp:install again\. Already written and left so: /,
    )
    expect(message.endsWith(`${path('.mcp.json')} (tapir added; not put back: it was edited since).`)).toBe(true)
    expect(readFileSync(path('.mcp.json'), 'utf8')).toBe('{"edited": true}')
  })
})
