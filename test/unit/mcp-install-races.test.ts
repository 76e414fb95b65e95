import {writeFileSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {planInstall, uninstallFor} from '../../src/lib/mcp/install.js'
import {tempDir} from '../helpers/cli.js'
import {FileEditor} from '../helpers/file-editor.js'

let editor: FileEditor
let project: {path: string; remove(): void}
beforeAll(() => {
  editor = new FileEditor()
  project = tempDir('tapir-mcp-race-')
})
afterAll(() => {
  editor.close()
  project.remove()
})

const RUNS = 50
const server = {command: 'node', args: ['/opt/tapir/bin/run.cjs', 'mcp:serve']}
const config = (servers: Record<string, unknown>) => `${JSON.stringify({mcpServers: servers}, null, 2)}\n`

describe('a server the user adds to .mcp.json the moment tapir writes is never lost', () => {
  for (const [command, atomic] of [
    ['mcp:install', false],
    ['mcp:install', true],
    ['mcp:uninstall', false],
    ['mcp:uninstall', true],
  ] as const) {
    it(`${command}, the edit ${atomic ? 'an atomic save' : 'made in place'}: ${RUNS} of ${RUNS}`, async () => {
      const path = join(project.path, '.mcp.json')
      for (let run = 0; run < RUNS; run++) {
        const start = command === 'mcp:install' ? {other: {command: 'x'}} : {other: {command: 'x'}, tapir: server}
        writeFileSync(path, config(start))
        const edit = config({...start, [`added-${run}`]: {command: 'y'}})
        await editor.arm({dir: project.path, pattern: '^\\.\\.mcp\\.json\\.[0-9a-f]{16}\\.tmp$', target: path, text: edit, atomic})
        let error: unknown
        try {
          if (command === 'mcp:install') planInstall('claude', project.path, server, '/opt/tapir/bin/run.cjs').write()
          else uninstallFor('claude', project.path, '/opt/tapir/bin/run.cjs')
        } catch (caught) {
          error = caught
        }
        await editor.edited()
        expect(readFileSync(path, 'utf8'), `run ${run}`).toBe(edit)
        if (error !== undefined)
          expect(String(error)).toContain(`${path} changed while tapir worked: run tapir ${command} again. Nothing was written.`)
      }
    })
  }
})
