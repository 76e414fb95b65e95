import {describe, expect, it} from 'vitest'
import {sessionFile, tapir, tempDir} from '../helpers/cli.js'

const TOKEN = 'Tok3nTok3n1='
const BARE = 'Tok3nTok3n1'

/** Nothing tapir printed holds the token, in any form. */
function expectNoToken(result: {stdout: string; stderr: string}): void {
  expect(result.stdout + result.stderr).not.toContain(BARE)
}

describe('the VM Service token never prints', () => {
  it('attach with a URI whose token sits under a path prefix hides it, with and without --json', async () => {
    const dir = tempDir()
    const state = `${dir.path}/state.json`
    for (const json of [[], ['--json']]) {
      const result = await tapir(['attach', '--uri', `http://127.0.0.1:9/vm/${TOKEN}/`, '--state', state, '--timeout=500', ...json])
      expect(result.exitCode, result.stderr).toBe(0)
      expectNoToken(result)
      expect(result.stdout).toContain('ws://127.0.0.1:9/vm/***/ws')
    }
    dir.remove()
  })

  it('status hides the token in every field of the session file: path prefixes, upper-case schemes, URIs inside other text', async () => {
    const dir = tempDir()
    const state = sessionFile(dir.path, `HTTP://127.0.0.1:9/vm/${TOKEN}/`, {
      devToolsUri: `http://127.0.0.1:9100/?uri=ws%3A%2F%2F127.0.0.1%3A9%2F${BARE}%3D%2Fws`,
      note: `started from Ws://127.0.0.1:9/a/b/${BARE}/ws by hand`,
      nested: {uris: [`wss://127.0.0.1:9/${TOKEN}`]},
    })
    for (const json of [[], ['--json']]) {
      const result = await tapir(['status', '--state', state, '--timeout=500', ...json])
      expect(result.exitCode, result.stderr).toBe(0)
      expectNoToken(result)
      const status = JSON.parse(result.stdout)
      expect(status).toMatchObject({
        vmServiceUri: 'HTTP://127.0.0.1:9/vm/***/',
        answering: false,
        nested: {uris: ['wss://127.0.0.1:9/***']},
      })
      expect(status.error).toContain('ws://127.0.0.1:9/vm/***/ws')
    }
    dir.remove()
  })

  it('a verb that cannot reach the app names the URI without its token, on stderr and in the --json error', async () => {
    const dir = tempDir()
    const state = sessionFile(dir.path, `HTTP://127.0.0.1:9/vm/${TOKEN}/`)
    const plain = await tapir(['tapir:snap', '--state', state])
    expect(plain).toMatchObject({exitCode: 3, stdout: ''})
    expect(plain.stderr).toMatch(/^✗ Cannot reach the app's VM Service at ws:\/\/127\.0\.0\.1:9\/vm\/\*\*\*\/ws: /)
    expectNoToken(plain)
    const json = await tapir(['tapir:snap', '--state', state, '--json'])
    expect(json.exitCode).toBe(3)
    expect(JSON.parse(json.stdout).error.message).toContain('ws://127.0.0.1:9/vm/***/ws')
    expectNoToken(json)
    dir.remove()
  })

  it('a token in an argument oclif refuses is hidden in the usage error', async () => {
    const result = await tapir(['attach', `http://127.0.0.1:9/vm/${TOKEN}/`, '--uri=x'])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('http://127.0.0.1:9/vm/***/')
    expectNoToken(result)
  })

  it('a URI pasted where the command goes is an unknown command, exit 1, with its token hidden', async () => {
    const result = await tapir([`http://127.0.0.1:9/vm/${TOKEN}/`])
    expect(result).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: '✗ Unknown command http://127.0.0.1:9/vm/***/. See `tapir --help` for the commands.',
    })
  })
})
