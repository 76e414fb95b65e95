import {execa} from 'execa'
import {describe, expect, it} from 'vitest'
import {BIN} from '../helpers/cli.js'
import {simSession} from '../helpers/sim.js'

describe('tapir mcp:serve answers every request exactly once', () => {
  it('a notifications/cancelled that arrives ahead of the request it names, in the same write, cancels nothing', async () => {
    const s = await simSession()
    try {
      const messages = [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'raw', version: '0'}},
        },
        {jsonrpc: '2.0', method: 'notifications/initialized'},
        {jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 2, reason: 'too early'}},
        {jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'tapir_get_routes', arguments: {}}},
        {jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 3, reason: 'too early'}},
        {jsonrpc: '2.0', id: 3, method: 'tools/list'},
      ]
      const result = await execa(process.execPath, [BIN, 'mcp:serve', '--state', s.state], {
        input: messages.map((message) => JSON.stringify(message)).join('\n') + '\n',
        reject: false,
        env: {NODE_ENV: 'production'},
        timeout: 30_000,
      })
      expect(result.exitCode, result.stderr).toBe(0)
      const answers = result.stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as {id?: number; result?: {isError?: boolean}})
      const ids = answers.filter((answer) => answer.id !== undefined).map((answer) => answer.id!)
      expect(ids.sort()).toEqual([1, 2, 3])
      expect(answers.find((answer) => answer.id === 2)?.result?.isError).toBeFalsy()
    } finally {
      await s.close()
    }
  })
})
