import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {locateSession} from '../../src/lib/session/location.js'
import {sessionShape, type Session} from '../../src/lib/session/session.js'
import {readOwnSession} from '../../src/lib/session/store.js'
import {readAll} from '../../src/lib/shape.js'
import {tempDir} from '../helpers/cli.js'

const URI = 'ws://127.0.0.1:9/AbCdEfGh12s=/ws'
const record = {pid: 4242, argv: ['node', 'sim.js'], startTime: '123'}

describe('the session file, read against one shape', () => {
  const dir = tempDir()
  afterAll(() => dir.remove())
  const read = (fields: Record<string, unknown>) => {
    const path = join(dir.path, 'state.json')
    writeFileSync(path, JSON.stringify(fields), {mode: 0o600})
    return readOwnSession(locateSession({stateFlag: path, env: {}, cwd: dir.path}))
  }
  const refusal = (fields: Record<string, unknown>) => {
    try {
      read(fields)
    } catch (error) {
      return (error as Error).message.replace(`${dir.path}/state.json `, '').replace(/\. Check .*/, '')
    }
    return 'read'
  }

  it('a whole session reads typed: ports, records, start options', () => {
    const session = read({vmServiceUri: URI, cdpPort: 9222, webPort: '8080', startArgs: ['--device=sim'], processes: {app: record}})
    expect(session?.processes?.app?.argv).toEqual(['node', 'sim.js'])
    expect(session?.startArgs).toEqual(['--device=sim'])
    expect(session?.webPort).toBe('8080') // the Dart tooling's digits, kept as they came
  })

  it('names the missing or mistyped field, never its value', () => {
    expect(refusal({device: 'sim'})).toBe('is not a tapir session file (a JSON object with vmServiceUri)')
    expect(refusal({vmServiceUri: URI, cdpPort: true})).toBe(
      'is not a tapir session file (its cdpPort is a boolean, not a port number or null)',
    )
    expect(refusal({vmServiceUri: URI, startArgs: '--device=sim'})).toBe(
      'is not a tapir session file (its startArgs is a string, not a list)',
    )
    expect(refusal({vmServiceUri: URI, processes: {app: {pid: 4242, argv: ['node']}}})).toBe(
      'is not a tapir session file (its processes.app.startTime is nothing, not a string)',
    )
  })

  it('keeps bare pids as information whatever they hold: stop refuses them, it never reads them as records', () => {
    expect(read({vmServiceUri: URI, pid: '4242', chromePid: -1})).toMatchObject({pid: '4242', chromePid: -1})
  })

  it('reports every mismatch of a session at once through the shape', () => {
    const read = readAll(sessionShape, {vmServiceUri: 7, device: 1, processes: {app: {...record, pid: 'x'}}})
    expect('mismatches' in read && read.mismatches.map((mismatch) => mismatch.path)).toEqual([
      'vmServiceUri',
      'device',
      'processes.app.pid',
    ])
  })

  it('types what the compiler sees from the shape', () => {
    const session: Session = {vmServiceUri: null, processes: {app: record}}
    // @ts-expect-error a session's startArgs is a list of strings
    const wrong: Session = {vmServiceUri: null, startArgs: 'x'}
    expect([session.processes?.app?.pid, wrong.vmServiceUri]).toEqual([4242, null])
  })
})
