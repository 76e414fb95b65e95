import {existsSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {locateSession} from '../../src/lib/session/location.js'
import {deleteSession} from '../../src/lib/session/store.js'

describe('deleteSession', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
  })

  it('takes the zero-install handles and perf session beside the session with it, and nothing else there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tapir-delete-'))
    dirs.push(dir)
    const path = join(dir, 'state.json')
    writeFileSync(path, '{}')
    writeFileSync(`${path}.handles.json`, '{"next":2,"handles":{"q1":{"text":"Email"}}}')
    // The lock of a find killed while it minted a handle, and a zero-install perf session.
    writeFileSync(`${path}.handles.json.lock`, '{}')
    writeFileSync(`${path}.perf`, '{"next":2,"open":{"token":"perf-1","startUs":1,"livenessBaseline":0}}\n')
    // The lock of a perf_begin killed while it opened the session.
    writeFileSync(`${path}.perf.lock`, '{}')
    writeFileSync(join(dir, 'other.json'), '{}')
    deleteSession(locateSession({stateFlag: path, env: {}, cwd: dir}), undefined)
    const left = [
      path,
      `${path}.handles.json`,
      `${path}.handles.json.lock`,
      `${path}.perf`,
      `${path}.perf.lock`,
      join(dir, 'other.json'),
    ].map((file) => existsSync(file))
    expect(left).toEqual([false, false, false, false, false, true])
  })
})
