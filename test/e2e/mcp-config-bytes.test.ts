import {chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, statSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {BIN, ROOT, tapir, tempDir} from '../helpers/cli.js'

const FIXTURES = join(ROOT, 'test', 'fixtures', 'mcp-config')
const FILES = {claude: '.mcp.json', cursor: '.cursor/mcp.json', vscode: '.vscode/mcp.json', gemini: '.gemini/settings.json'} as const
const server = {command: process.execPath, args: [BIN, 'mcp:serve']}

/** The JSONC a fixture holds, as its client reads it: comments and trailing commas dropped. */
const lenient = (text: string) =>
  JSON.parse(
    text
      .replace(/^\uFEFF/, '')
      .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
      .replace(/,(\s*[}\]])/g, '$1'),
  )

describe('mcp:install then mcp:uninstall give back every byte and the mode of each fixture', () => {
  let project: {path: string; remove(): void}
  beforeEach(() => (project = tempDir()))
  afterEach(() => project.remove())

  for (const fixture of readdirSync(FIXTURES)) {
    const client = fixture.split('-')[0] as keyof typeof FILES
    it(`${fixture} as ${FILES[client]}`, async () => {
      const path = join(project.path, FILES[client])
      mkdirSync(dirname(path), {recursive: true})
      copyFileSync(join(FIXTURES, fixture), path)
      chmodSync(path, 0o640)
      const original = readFileSync(path)
      const env = {PATH: '/usr/bin:/bin'}
      const installed = await tapir(['mcp:install', `--client=${client}`], {cwd: project.path, env})
      expect(installed, installed.stderr).toMatchObject({exitCode: 0, stderr: '', stdout: `✓ ${path}: tapir added`})
      const text = readFileSync(path, 'latin1')
      const key = client === 'vscode' ? 'servers' : 'mcpServers'
      const entry = client === 'vscode' ? {type: 'stdio', ...server} : server
      expect(lenient(readFileSync(path, 'utf8'))[key].tapir).toEqual(entry)
      // Only the entry was added: the bytes before it and after it are the file's own.
      const added = text.length - original.length
      const at = [...original.toString('latin1')].findIndex((char, index) => text[index] !== char)
      expect(text.slice(0, at) + text.slice(at + added)).toBe(original.toString('latin1'))
      expect(statSync(path).mode & 0o777).toBe(0o640)
      const removed = await tapir(['mcp:uninstall', `--client=${client}`], {cwd: project.path, env})
      expect(removed, removed.stderr).toMatchObject({exitCode: 0, stderr: '', stdout: `✓ ${path}: tapir removed`})
      expect(readFileSync(path).equals(original), readFileSync(path, 'latin1')).toBe(true)
      expect(statSync(path).mode & 0o777).toBe(0o640)
    })
  }
})
