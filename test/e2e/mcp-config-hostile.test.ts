import {execFileSync} from 'node:child_process'
import {chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {BIN, tapir, tempDir} from '../helpers/cli.js'

let project: {path: string; remove(): void}
let outside: {path: string; remove(): void}
beforeEach(() => {
  project = tempDir()
  outside = tempDir()
  writeFileSync(join(project.path, 'pubspec.yaml'), 'name: app\n')
})
afterEach(() => {
  project.remove()
  outside.remove()
})

const path = (file: string) => join(project.path, file)
const run = (args: string[]) => tapir(args, {cwd: project.path, env: {PATH: '/usr/bin:/bin'}})
const server = {command: process.execPath, args: [BIN, 'mcp:serve']}

/** Exit 1, one line on stderr, nothing on stdout. */
function expectRefused(result: {exitCode: number; stdout: string; stderr: string}, line: string | RegExp): void {
  expect(result).toMatchObject({exitCode: 1, stdout: ''})
  expect(result.stderr.split('\n')).toHaveLength(1)
  if (typeof line === 'string') expect(result.stderr).toBe(`✗ ${line}`)
  else expect(result.stderr).toMatch(line)
}

describe('mcp:install refuses what it cannot edit safely, writing nothing', () => {
  for (const [shape, value, what] of [
    ['an array', '[{"command": "x"}]', 'an array'],
    ['a string', '"servers go here"', 'a string'],
  ] as const) {
    it(`a mcpServers value that is ${shape}`, async () => {
      const text = `{"mcpServers": ${value}}`
      writeFileSync(path('.mcp.json'), text)
      for (const command of ['mcp:install', 'mcp:uninstall'])
        expectRefused(
          await run([command]),
          `${path('.mcp.json')} has a "mcpServers" that is not an object (${what}); fix or remove it, then run tapir ${command} again. Nothing was written.`,
        )
      expect(readFileSync(path('.mcp.json'), 'utf8')).toBe(text)
    })
  }

  it('a tapir entry the user wrote is left alone unless --force; mcp:uninstall leaves it too', async () => {
    const theirs = {command: 'python3', args: ['-m', 'tapir_server'], env: {TOKEN: 'x'}}
    const text = JSON.stringify({mcpServers: {tapir: theirs}}, null, 2)
    writeFileSync(path('.mcp.json'), text)
    expectRefused(
      await run(['mcp:install']),
      `${path('.mcp.json')} has a tapir entry that mcp:install did not write (it runs "python3"); it is left as it is. Run tapir mcp:install --force to replace it. Nothing was written.`,
    )
    expect(readFileSync(path('.mcp.json'), 'utf8')).toBe(text)
    // An entry of tapir's own with settings added by hand is the user's too.
    const edited = JSON.stringify({mcpServers: {tapir: {...server, env: {DEBUG: '1'}}}})
    writeFileSync(path('.mcp.json'), edited)
    expect((await run(['mcp:install'])).exitCode).toBe(1)
    expect((await run(['mcp:uninstall'])).stdout).toContain('left as it is')
    expect(readFileSync(path('.mcp.json'), 'utf8')).toBe(edited)
    const forced = await run(['mcp:install', '--force'])
    expect(forced).toMatchObject({exitCode: 0, stderr: '', stdout: `✓ ${path('.mcp.json')}: tapir replaced`})
    expect(JSON.parse(readFileSync(path('.mcp.json'), 'utf8')).mcpServers.tapir).toEqual(server)
  })

  it.each([
    ['a container', {command: 'docker', args: ['run', '--rm', '-i', 'ghcr.io/me/tapir-fork:2', 'mcp:serve']}, 'docker'],
    ['a fork run by npx', {command: 'npx', args: ['-y', 'my-tapir-fork', 'mcp:serve', '--catalogue=dusk']}, 'npx'],
    ['another install of tapir', {command: 'node', args: ['/elsewhere/tapir/bin/run.cjs', 'mcp:serve']}, 'node'],
  ])(
    'a tapir entry ending in mcp:serve that is not this tapir (%s) stays: install refuses, uninstall keeps it',
    async (_, theirs, runs) => {
      const text = JSON.stringify({mcpServers: {tapir: theirs}}, null, 2)
      writeFileSync(path('.mcp.json'), text)
      expectRefused(
        await run(['mcp:install']),
        `${path('.mcp.json')} has a tapir entry that mcp:install did not write (it runs "${runs}"); it is left as it is. Run tapir mcp:install --force to replace it. Nothing was written.`,
      )
      expect(await run(['mcp:uninstall'])).toMatchObject({
        exitCode: 0,
        stdout: `⚠ ${path('.mcp.json')}: its tapir entry is not one mcp:install writes (another command or more settings); left as it is`,
      })
      expect(readFileSync(path('.mcp.json'), 'utf8')).toBe(text)
    },
  )

  it('an entry of this tapir under another node (or tapir on PATH) is its own: updated, and removed', async () => {
    for (const ours of [
      {command: '/usr/bin/nodejs', args: [BIN, 'mcp:serve']},
      {command: 'tapir', args: ['mcp:serve', '--catalogue=dusk']},
    ]) {
      writeFileSync(path('.mcp.json'), JSON.stringify({mcpServers: {tapir: ours}}))
      expect(await run(['mcp:install'])).toMatchObject({exitCode: 0, stdout: `✓ ${path('.mcp.json')}: tapir updated`})
      writeFileSync(path('.mcp.json'), JSON.stringify({mcpServers: {tapir: ours}}))
      expect(await run(['mcp:uninstall'])).toMatchObject({exitCode: 0, stdout: `✓ ${path('.mcp.json')}: tapir removed`})
    }
  })

  it('keeps numbers beyond a double, duplicate keys and bytes that are not UTF-8', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"mcpServers": {"a": {"command": "x", "n": 12345678901234567890, "big": 1e400}}, "k": 1, "k": 2, "s": "'),
      Buffer.from([0xe9, 0xff]),
      Buffer.from('"}'),
    ])
    writeFileSync(path('.mcp.json'), bytes)
    expect((await run(['mcp:install'])).exitCode).toBe(0)
    const text = readFileSync(path('.mcp.json'), 'latin1')
    expect(text).toContain('"n": 12345678901234567890, "big": 1e400')
    expect(text).toContain('"k": 1, "k": 2, "s": "\u00e9\u00ff"')
    expect((await run(['mcp:uninstall'])).exitCode).toBe(0)
    expect(readFileSync(path('.mcp.json')).equals(bytes)).toBe(true)
  })

  it('two tapir entries or two mcpServers keys: which one a client reads is its own choice, so refused', async () => {
    writeFileSync(path('.mcp.json'), '{"mcpServers": {"tapir": {"command": "a"}, "tapir": {"command": "b"}}}')
    expectRefused(await run(['mcp:install']), /has two "tapir" entries under "mcpServers"; fix or remove it/)
    writeFileSync(path('.mcp.json'), '{"mcpServers": {}, "mcpServers": {}}')
    expectRefused(await run(['mcp:uninstall']), /has "mcpServers" twice; fix or remove it/)
  })

  it('a FIFO and a link to /dev/zero are refused at once, not read', async () => {
    execFileSync('mkfifo', [path('.mcp.json')])
    for (const command of ['mcp:install', 'mcp:uninstall'])
      expectRefused(await run([command]), `Refusing to read ${path('.mcp.json')}: it is not a regular file. Nothing was written.`)
    mkdirSync(path('.cursor'))
    symlinkSync('/dev/zero', path('.cursor/mcp.json'))
    expectRefused(
      await run(['mcp:install', '--client=cursor']),
      `Refusing to read ${path('.cursor/mcp.json')}: it is not a regular file. Nothing was written.`,
    )
  })

  it('a config or a folder that links outside the project is refused, naming where it leads', async () => {
    const elsewhere = join(outside.path, 'mcp.json')
    const text = '{"mcpServers": {}}'
    writeFileSync(elsewhere, text)
    symlinkSync(elsewhere, path('.mcp.json'))
    expectRefused(
      await run(['mcp:install']),
      `Refusing to write ${path('.mcp.json')}: it leads to ${elsewhere}, outside the project (through a symbolic link). Nothing was written.`,
    )
    mkdirSync(join(outside.path, 'cursor'))
    symlinkSync(join(outside.path, 'cursor'), path('.cursor'))
    expectRefused(
      await run(['mcp:install', '--client=cursor']),
      `Refusing to write ${path('.cursor/mcp.json')}: it leads to ${join(outside.path, 'cursor')}, outside the project (through a symbolic link). Nothing was written.`,
    )
    expect(readFileSync(elsewhere, 'utf8')).toBe(text)
  })

  it('a read-only config is refused, as install refuses read-only files', async () => {
    writeFileSync(path('.mcp.json'), '{}')
    chmodSync(path('.mcp.json'), 0o444)
    expectRefused(
      await run(['mcp:install']),
      `Refusing to write ${path('.mcp.json')}: it is read-only. Make it writable (chmod u+w ${path('.mcp.json')}), then run tapir mcp:install again. Nothing was written.`,
    )
    expect(statSync(path('.mcp.json')).mode & 0o777).toBe(0o444)
    expect(readFileSync(path('.mcp.json'), 'utf8')).toBe('{}')
  })

  it('--client=all with one read-only file writes none of them, and says so truly', async () => {
    mkdirSync(path('.gemini'))
    writeFileSync(path('.gemini/settings.json'), '{}')
    chmodSync(path('.gemini/settings.json'), 0o444)
    writeFileSync(path('.mcp.json'), '{"mcpServers": {}}')
    expectRefused(
      await run(['mcp:install', '--client=all']),
      `Refusing to write ${path('.gemini/settings.json')}: it is read-only. Make it writable (chmod u+w ${path('.gemini/settings.json')}), then run tapir mcp:install again. Nothing was written.`,
    )
    expect(readFileSync(path('.mcp.json'), 'utf8')).toBe('{"mcpServers": {}}')
    expect(existsSync(path('.cursor'))).toBe(false)
    expect(existsSync(path('.vscode'))).toBe(false)
    expect(readFileSync(path('.gemini/settings.json'), 'utf8')).toBe('{}')
  })

  it('a value nested 20,000 deep is one line, exit 1', async () => {
    writeFileSync(path('.mcp.json'), `{"deep": ${'['.repeat(20_000)}${']'.repeat(20_000)}}`)
    expectRefused(await run(['mcp:install']), /is not valid JSON \(values nested deeper than 256 levels at line 1\); fix or remove it/)
  })

  it('comments in .mcp.json are refused (its readers take plain JSON); a BOM is kept; VS Code and Gemini files may have comments', async () => {
    writeFileSync(path('.mcp.json'), '{\n  // mine\n  "mcpServers": {}\n}\n')
    expectRefused(await run(['mcp:install']), /is not valid JSON \(a comment, which this client does not read in this file, at line 2\)/)
    writeFileSync(path('.mcp.json'), '\uFEFF{"mcpServers": {"other": {"command": "x"}}}')
    expect((await run(['mcp:install'])).exitCode).toBe(0)
    expect(readFileSync(path('.mcp.json'), 'utf8').startsWith('\uFEFF{"mcpServers": {"other": {"command": "x"},"tapir":')).toBe(true)
    mkdirSync(path('.vscode'))
    writeFileSync(path('.vscode/mcp.json'), '{\n  // mine\n  "servers": {},\n}\n')
    expect((await run(['mcp:install', '--client=vscode'])).exitCode).toBe(0)
    // Its empty servers object was the file's own: uninstall gives it back.
    expect(readFileSync(path('.vscode/mcp.json'), 'utf8')).toMatch(/^\{\n {2}\/\/ mine\n {2}"servers": \{"tapir": \{\n {4}"type"/)
    expect((await run(['mcp:uninstall', '--client=vscode'])).exitCode).toBe(0)
    expect(readFileSync(path('.vscode/mcp.json'), 'utf8')).toBe('{\n  // mine\n  "servers": {},\n}\n')
  })
})
