import {mkdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {execa} from 'execa'
import {describe, expect, it} from 'vitest'
import {isAlive} from '../../src/lib/session/process.js'
import {markEnv, ROOT, tempDir} from '../helpers/cli.js'
import {copyProject} from '../helpers/golden.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'

expectNoProcessLeft()

describe('the packed tarball', () => {
  // Packing, then five runs of tapir, one of them a start: more than the default 30 s on a busy machine.
  it('runs on its own files: start --device=sim, a verb, stop, and install with its Dart parser', async () => {
    const scratch = tempDir('tapir-packed-')
    const unpacked = join(scratch.path, 'package')
    const env = {HOME: scratch.path, NO_COLOR: '1', TAPIR_STATE_FILE: join(scratch.path, 'state.json'), ...markEnv()}
    const tapir = (args: string[]) =>
      execa(process.execPath, [join(unpacked, 'bin', 'run.cjs'), ...args], {cwd: scratch.path, env, reject: false, timeout: 60_000})
    try {
      // --ignore-scripts: dist/ is already built (pretest), and prepack would rebuild it under the tests beside this one.
      const pack = await execa('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch.path], {cwd: ROOT})
      const tarball = join(scratch.path, (JSON.parse(pack.stdout) as Array<{filename: string}>)[0]!.filename)
      await execa('tar', ['-xzf', tarball, '-C', scratch.path])
      // The project's node_modules stands in for `npm install`; which packages must be runtime
      // dependencies is test/contract/package.test.ts's business.
      symlinkSync(join(ROOT, 'node_modules'), join(unpacked, 'node_modules'))

      const start = await tapir(['start', '--device=sim'])
      expect(start.exitCode, start.stderr).toBe(0)
      const pid = Number(/sim pid=(\d+)/.exec(start.stdout)?.[1])
      expect((await execa('ps', ['-o', 'args=', '-p', String(pid)])).stdout).toContain(join(unpacked, 'dist', 'sim', 'main.js'))
      expect((await tapir(['tapir:snap', '--interactiveOnly'])).stdout).toContain('- button "Sign in" [ref=e4]')
      expect((await tapir(['stop'])).exitCode).toBe(0)
      expect(isAlive(pid)).toBe(false)

      copyProject('counter', join(scratch.path, 'app'))
      const install = await tapir(['install', '--dry-run', `--project=${join(scratch.path, 'app')}`])
      expect(install.exitCode, install.stderr).toBe(0)
      expect(install.stdout).toContain('+    TapirPlugin.install(); // added by tapir install')
    } finally {
      await tapir(['stop'])
      scratch.remove()
    }
  }, 120_000)

  // What docs/tests-in-ci.md tells a CI job to do, as it does it: npm installs the tarball and its
  // dependencies (from the registry, or npm's cache) into a prefix of its own, and `tapir` on that
  // prefix's PATH runs a verb on the sim and serves MCP from the entry mcp:install writes.
  it('installs with npm install -g from the tarball into a fresh prefix, and runs from there: verbs and mcp:serve', async () => {
    const scratch = tempDir('tapir-packed-global-')
    const prefix = join(scratch.path, 'prefix')
    const project = join(scratch.path, 'app')
    mkdirSync(project)
    writeFileSync(join(project, 'pubspec.yaml'), 'name: app\n')
    const env = {
      HOME: scratch.path,
      NO_COLOR: '1',
      PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`,
      TAPIR_STATE_FILE: join(scratch.path, 'state.json'),
      ...markEnv(),
    }
    const tapir = (args: string[]) => execa('tapir', args, {cwd: project, env, extendEnv: false, reject: false, timeout: 60_000})
    try {
      const pack = await execa('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch.path], {cwd: ROOT})
      const tarball = join(scratch.path, (JSON.parse(pack.stdout) as Array<{filename: string}>)[0]!.filename)
      const install = await execa(
        'npm',
        ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball],
        {cwd: scratch.path, env: {...process.env, HOME: process.env.HOME ?? scratch.path}, reject: false, timeout: 240_000},
      )
      expect(install.exitCode, install.stderr).toBe(0)
      const installed = join(prefix, 'lib', 'node_modules', 'tapir')

      const version = await tapir(['--version'])
      expect(version.exitCode, version.stderr).toBe(0)
      expect(version.stdout).toMatch(/^tapir\/\d+\.\d+\.\d+ /)
      const start = await tapir(['start', '--device=sim'])
      expect(start.exitCode, start.stderr).toBe(0)
      const pid = Number(/sim pid=(\d+)/.exec(start.stdout)?.[1])
      expect((await execa('ps', ['-o', 'args=', '-p', String(pid)])).stdout).toContain(join(installed, 'dist', 'sim', 'main.js'))
      expect((await tapir(['tapir:snap', '--interactiveOnly'])).stdout).toContain('- button "Sign in" [ref=e4]')

      // mcp:install's entry runs this installed tapir, and an MCP client served by it sees the app.
      expect((await tapir(['mcp:install'])).exitCode).toBe(0)
      const entry = (
        JSON.parse(readFileSync(join(project, '.mcp.json'), 'utf8')) as {mcpServers: {tapir: {command: string; args: string[]}}}
      ).mcpServers.tapir
      // With the prefix's tapir on PATH, the entry names it as a user would type it.
      expect(entry).toEqual({command: 'tapir', args: ['mcp:serve']})
      const client = new Client({name: 'packed-test', version: '0.0.0'})
      await client.connect(new StdioClientTransport({command: entry.command, args: entry.args, cwd: project, env, stderr: 'pipe'}))
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('tapir_snap')
        const snap = (await client.callTool({name: 'tapir_snap', arguments: {interactiveOnly: true}})) as {content: Array<{text: string}>}
        expect(snap.content[0]!.text).toContain('[ref=e4]')
      } finally {
        await client.close()
      }
      expect((await tapir(['stop'])).exitCode).toBe(0)
      expect(isAlive(pid)).toBe(false)
    } finally {
      await tapir(['stop'])
      scratch.remove()
    }
  }, 300_000)
})
