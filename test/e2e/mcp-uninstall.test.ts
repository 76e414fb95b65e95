import {chownSync, existsSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {tapir, tempDir} from '../helpers/cli.js'

describe('tapir mcp:uninstall', () => {
  let project: {path: string; remove(): void}
  beforeEach(() => {
    project = tempDir()
    writeFileSync(join(project.path, 'pubspec.yaml'), 'name: app\n')
  })
  afterEach(() => project.remove())

  const path = (file: string) => join(project.path, file)
  const read = (file: string) => JSON.parse(readFileSync(path(file), 'utf8'))
  const run = (args: string[]) => tapir(args, {cwd: project.path, env: {PATH: '/usr/bin:/bin'}})

  it('removes the entry mcp:install wrote and keeps the rest of the config, its mode and its owner; a second run has nothing to remove', async () => {
    const other = {command: 'other-server', env: {TOKEN: 'secret'}}
    writeFileSync(path('.mcp.json'), JSON.stringify({mcpServers: {other}, extra: 1}), {mode: 0o600})
    expect((await run(['mcp:install'])).exitCode).toBe(0)
    const asRoot = process.getuid?.() === 0
    if (asRoot) chownSync(path('.mcp.json'), 4321, 4321)
    const removed = await run(['mcp:uninstall'])
    expect(removed).toMatchObject({exitCode: 0, stderr: '', stdout: `✓ ${path('.mcp.json')}: tapir removed`})
    expect(read('.mcp.json')).toEqual({mcpServers: {other}, extra: 1})
    const stats = statSync(path('.mcp.json'))
    expect(stats.mode & 0o777).toBe(0o600)
    if (asRoot) expect([stats.uid, stats.gid]).toEqual([4321, 4321])
    const again = await run(['mcp:uninstall'])
    expect(again).toMatchObject({exitCode: 0, stdout: `✓ ${path('.mcp.json')} has no tapir entry: nothing to remove`})
  })

  it('removes the entry mcp:install --catalogue=dusk wrote', async () => {
    expect((await run(['mcp:install', '--catalogue=dusk'])).exitCode).toBe(0)
    expect(await run(['mcp:uninstall'])).toMatchObject({exitCode: 0, stdout: `✓ ${path('.mcp.json')}: tapir removed`})
    expect(read('.mcp.json')).toEqual({})
  })

  it('--client=all undoes mcp:install --client=all in each client shape; a missing file is nothing to remove', async () => {
    expect((await run(['mcp:install', '--client=all'])).exitCode).toBe(0)
    writeFileSync(path('.vscode/mcp.json'), JSON.stringify({...read('.vscode/mcp.json'), inputs: []}))
    const result = await run(['mcp:uninstall', '--client=all', '--json'])
    expect(result).toMatchObject({exitCode: 0, stderr: ''})
    expect(JSON.parse(result.stdout).files.map((file: {client: string; change: string}) => [file.client, file.change])).toEqual([
      ['claude', 'removed'],
      ['cursor', 'removed'],
      ['vscode', 'removed'],
      ['gemini', 'removed'],
    ])
    expect(read('.mcp.json')).toEqual({})
    expect(read('.vscode/mcp.json')).toEqual({inputs: []})
    expect(read('.cursor/mcp.json')).toEqual({})
    expect(read('.gemini/settings.json')).toEqual({})
    const none = tempDir()
    try {
      writeFileSync(join(none.path, 'pubspec.yaml'), 'name: app\n')
      const nothing = await tapir(['mcp:uninstall', '--client=cursor'], {cwd: none.path})
      expect(nothing).toMatchObject({
        exitCode: 0,
        stdout: `✓ ${join(none.path, '.cursor', 'mcp.json')} has no tapir entry: nothing to remove`,
      })
      expect(existsSync(join(none.path, '.cursor'))).toBe(false)
    } finally {
      none.remove()
    }
  })

  it('writes through a symbolic link to its target, and leaves a tapir entry that does not run mcp:serve', async () => {
    const real = path('shared.json')
    writeFileSync(real, JSON.stringify({mcpServers: {tapir: {command: 'tapir', args: ['mcp:serve']}, other: {command: 'x'}}}))
    symlinkSync(real, path('.mcp.json'))
    const result = await run(['mcp:uninstall'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(lstatSync(path('.mcp.json')).isSymbolicLink()).toBe(true)
    expect(JSON.parse(readFileSync(real, 'utf8'))).toEqual({mcpServers: {other: {command: 'x'}}})

    const foreign = {mcpServers: {tapir: {command: 'python3', args: ['-m', 'tapir_server']}}}
    writeFileSync(real, JSON.stringify(foreign))
    const kept = await run(['mcp:uninstall'])
    expect(kept).toMatchObject({
      exitCode: 0,
      stdout: `⚠ ${path('.mcp.json')}: its tapir entry is not one mcp:install writes (another command or more settings); left as it is`,
    })
    expect(JSON.parse(readFileSync(real, 'utf8'))).toEqual(foreign)
  })

  it('refuses a config file that is not JSON and leaves it as it was', async () => {
    writeFileSync(path('.mcp.json'), '{ not json')
    const result = await run(['mcp:uninstall'])
    expect(result).toMatchObject({exitCode: 1, stdout: ''})
    expect(result.stderr).toBe(
      `✗ ${path('.mcp.json')} is not valid JSON (a key that is not a string at line 1); fix or remove it, then run tapir mcp:uninstall again. Nothing was written.`,
    )
    expect(readFileSync(path('.mcp.json'), 'utf8')).toBe('{ not json')
  })
})
