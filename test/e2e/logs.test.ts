import {appendFileSync, truncateSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {sessionFile, tapir, tempDir} from '../helpers/cli.js'
import {flutterProject, sleep, waitFor} from '../helpers/flutter-project.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'

expectNoProcessLeft()

describe('tapir logs on a 700 MB log', () => {
  const dir = tempDir()
  afterAll(() => dir.remove())
  // A sparse file: 700 MB of NUL bytes on one line (no disk space), then three short lines.
  const log = join(dir.path, 'app.log')
  writeFileSync(log, '')
  truncateSync(log, 700 * 1024 * 1024)
  appendFileSync(log, '\nflutter: first line after\nflutter: see http://127.0.0.1:8181/AbCdEf12_-=/ws\nflutter: last line\n')
  const state = sessionFile(dir.path, 'ws://127.0.0.1:9/AbCdEf12_-=/ws', {log, device: 'linux'})

  it('--tail=2 reads the end of the file only, at once', async () => {
    const began = Date.now()
    const result = await tapir(['logs', '--tail=2', '--state', state])
    expect(result).toMatchObject({exitCode: 0, stderr: '', stdout: 'flutter: see http://127.0.0.1:8181/***/ws\nflutter: last line'})
    expect(Date.now() - began).toBeLessThan(10_000)
  })

  it('the whole log streams through in pieces: the endless line cut, the rest as written', async () => {
    const result = await tapir(['logs', '--state', state])
    expect(result.stderr).toBe('')
    expect(result.exitCode).toBe(0)
    expect(result.stdout.split('\n')).toEqual([
      '… (line cut at 64 KB)',
      'flutter: first line after',
      'flutter: see http://127.0.0.1:8181/***/ws',
      'flutter: last line',
    ])
  }, 60_000)

  it('--follow streams the same, then says the app has stopped (nothing of this session runs)', async () => {
    const result = await tapir(['logs', '--follow', '--tail=1', '--state', state])
    expect(result).toMatchObject({exitCode: 0, stdout: 'flutter: last line', stderr: '✓ The app has stopped.'})
  })
})

describe('tapir logs --follow on a running sim', () => {
  it('keeps following while the sim runs, and says it stopped only once `tapir stop` has ended it', async () => {
    const p = flutterProject()
    try {
      expect((await p.run(['start', '--device=sim'])).exitCode).toBe(0)
      const follow = p.spawn(['logs', '--follow'])
      let stdout = ''
      let stderr = ''
      follow.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
      follow.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      // Following once the log so far is out: the sim's first line.
      expect(await waitFor(() => stdout.includes('The Dart VM service is listening on'), 30_000)).toBe(true)
      await sleep(1000)
      expect(follow.exitCode, stderr).toBeNull()
      expect(stderr).toBe('')
      expect((await p.run(['stop'])).exitCode).toBe(0)
      const result = await follow
      expect(result.exitCode).toBe(0)
      expect(result.stderr).toBe('✓ The app has stopped.')
    } finally {
      await p.run(['stop'])
      p.dir.remove()
    }
  }, 60_000)

  it('Ctrl-C ends the following quietly while the sim runs on', async () => {
    const p = flutterProject()
    try {
      expect((await p.run(['start', '--device=sim'])).exitCode).toBe(0)
      const follow = p.spawn(['logs', '--follow', '--tail=1'])
      let stdout = ''
      follow.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
      expect(await waitFor(() => stdout !== '', 30_000)).toBe(true)
      follow.kill('SIGINT')
      const result = await follow
      expect(result).toMatchObject({exitCode: 0, stderr: ''})
      expect(await waitFor(() => p.session()?.processes.app !== undefined)).toBe(true)
      expect((await p.run(['stop'])).exitCode).toBe(0)
    } finally {
      await p.run(['stop'])
      p.dir.remove()
    }
  }, 60_000)
})
