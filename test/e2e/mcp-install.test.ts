import {existsSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {BIN, tapir, tempDir} from '../helpers/cli.js'

describe('tapir mcp:install', () => {
  let project: {path: string; remove(): void}
  beforeEach(() => {
    project = tempDir()
    writeFileSync(join(project.path, 'pubspec.yaml'), 'name: app\n')
  })
  afterEach(() => project.remove())

  const read = (file: string) => JSON.parse(readFileSync(join(project.path, file), 'utf8'))
  const expectedServer = {command: process.execPath, args: [BIN, 'mcp:serve']}

  it("adds tapir to the project's .mcp.json, keeping other servers, and a second run changes nothing", async () => {
    writeFileSync(join(project.path, '.mcp.json'), JSON.stringify({mcpServers: {other: {command: 'other-server'}}, extra: 1}))
    const first = await tapir(['mcp:install'], {cwd: project.path, env: {PATH: '/usr/bin:/bin'}})
    expect(first).toMatchObject({exitCode: 0, stdout: `✓ ${join(project.path, '.mcp.json')}: tapir added`})
    expect(read('.mcp.json')).toEqual({mcpServers: {other: {command: 'other-server'}, tapir: expectedServer}, extra: 1})
    const second = await tapir(['mcp:install'], {cwd: project.path, env: {PATH: '/usr/bin:/bin'}})
    expect(second.stdout).toBe(`✓ ${join(project.path, '.mcp.json')} already runs tapir`)
  })

  it('writes the VS Code, Cursor and Gemini files in their own shapes with --client=all', async () => {
    const result = await tapir(['mcp:install', '--client=all'], {cwd: project.path, env: {PATH: '/usr/bin:/bin'}})
    expect(result.exitCode).toBe(0)
    expect(result.stdout.split('\n')).toHaveLength(4)
    expect(read('.vscode/mcp.json')).toEqual({servers: {tapir: {type: 'stdio', ...expectedServer}}})
    expect(read('.cursor/mcp.json')).toEqual({mcpServers: {tapir: expectedServer}})
    expect(read('.gemini/settings.json')).toEqual({mcpServers: {tapir: expectedServer}})
  })

  it('updates a stale tapir entry', async () => {
    writeFileSync(
      join(project.path, '.mcp.json'),
      JSON.stringify({mcpServers: {tapir: {command: 'node', args: [BIN, 'mcp:serve', '--catalogue=dusk']}}}),
    )
    const result = await tapir(['mcp:install', '--client=claude'], {cwd: project.path, env: {PATH: '/usr/bin:/bin'}})
    expect(result.stdout).toContain('tapir updated')
    expect(read('.mcp.json').mcpServers.tapir).toEqual(expectedServer)
  })

  it('refuses a config file that is not JSON and leaves it as it was', async () => {
    writeFileSync(join(project.path, '.mcp.json'), '{ not json')
    const result = await tapir(['mcp:install'], {cwd: project.path})
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(
      /^✗ .*\.mcp\.json is not valid JSON \(a key that is not a string at line 1\); fix or remove it, then run tapir mcp:install again\. Nothing was written\.$/,
    )
    expect(readFileSync(join(project.path, '.mcp.json'), 'utf8')).toBe('{ not json')
  })

  it('keeps a private config private and writes through a symbolic link to its target', async () => {
    const real = join(project.path, 'shared-config.json')
    writeFileSync(real, JSON.stringify({mcpServers: {other: {command: 'other', env: {TOKEN: 'secret'}}}}), {mode: 0o600})
    symlinkSync(real, join(project.path, '.mcp.json'))
    const result = await tapir(['mcp:install'], {cwd: project.path, env: {PATH: '/usr/bin:/bin'}})
    expect(result.exitCode, result.stderr).toBe(0)
    expect(lstatSync(join(project.path, '.mcp.json')).isSymbolicLink()).toBe(true)
    expect(statSync(real).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(real, 'utf8')).mcpServers).toEqual({
      other: {command: 'other', env: {TOKEN: 'secret'}},
      tapir: expectedServer,
    })
  })

  it('--catalogue=dusk registers the server of the dusk_* tools; installing again without it goes back to tapir_*', async () => {
    const dusk = await tapir(['mcp:install', '--catalogue=dusk'], {cwd: project.path, env: {PATH: '/usr/bin:/bin'}})
    expect(dusk).toMatchObject({exitCode: 0, stderr: '', stdout: `✓ ${join(project.path, '.mcp.json')}: tapir added`})
    expect(read('.mcp.json').mcpServers.tapir).toEqual({command: process.execPath, args: [BIN, 'mcp:serve', '--catalogue=dusk']})
    const back = await tapir(['mcp:install'], {cwd: project.path, env: {PATH: '/usr/bin:/bin'}})
    expect(back.stdout).toBe(`✓ ${join(project.path, '.mcp.json')}: tapir updated`)
    expect(read('.mcp.json').mcpServers.tapir).toEqual(expectedServer)
  })

  it('refuses an unknown catalogue in one line, exit 1, writing nothing', async () => {
    const result = await tapir(['mcp:install', '--catalogue=playwright'], {cwd: project.path})
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^✗ [^\n]*--catalogue[^\n]*tapir, dusk[^\n]*$/)
    expect(existsSync(join(project.path, '.mcp.json'))).toBe(false)
  })

  it('refuses an unknown client', async () => {
    const result = await tapir(['mcp:install', '--client=emacs'], {cwd: project.path})
    expect(result.exitCode).toBe(1)
    expect(existsSync(join(project.path, '.mcp.json'))).toBe(false)
  })
})
