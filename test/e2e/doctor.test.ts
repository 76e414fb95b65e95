import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {sessionFile, tapir, tempDir} from '../helpers/cli.js'
import {simSession} from '../helpers/sim.js'

describe('tapir doctor', () => {
  it('with no session, says how to get one: ✗ session, exit 1', async () => {
    const dir = tempDir()
    try {
      const state = join(dir.path, 'state.json')
      const result = await tapir(['doctor', '--state', state], {cwd: dir.path})
      expect(result).toMatchObject({exitCode: 1, stderr: ''})
      expect(result.stdout).toBe(
        [
          `⚠ project: no pubspec.yaml in ${dir.path} or above: run tapir doctor in your Flutter app's folder to check its set-up`,
          `✗ session: none at ${state}: run \`tapir start --device=<id>\` or \`tapir attach --uri <VM Service URI>\``,
        ].join('\n'),
      )
    } finally {
      dir.remove()
    }
  })

  it('against a healthy app, one ✓ line per check of it (⚠ project: no Flutter project here) and exit 0; --json lists the same checks', async () => {
    const s = await simSession()
    try {
      const result = await s.run(['doctor'])
      expect(result.exitCode, result.stdout).toBe(0)
      const lines = result.stdout.split('\n')
      expect(lines.map((line) => line.slice(0, line.indexOf(':')))).toEqual([
        '⚠ project',
        '✓ session',
        '✓ processes',
        '✓ vm service',
        '✓ tapir',
        '✓ frames',
      ])
      expect(result.stdout).not.toMatch(/[A-Za-z0-9_-]+=\/ws/) // the token is hidden
      const json = await s.run(['doctor', '--json'])
      expect(json.exitCode).toBe(0)
      expect((JSON.parse(json.stdout) as {checks: Array<{name: string; ok: boolean}>}).checks.map(({name, ok}) => [name, ok])).toEqual([
        ['project', false],
        ['session', true],
        ['processes', true],
        ['vm service', true],
        ['tapir', true],
        ['frames', true],
      ])
    } finally {
      await s.close()
    }
  })

  it('an app that draws no frames fails the frames check: exit 1', async () => {
    const s = await simSession()
    try {
      s.sim.app.setLifecycle('detached')
      const result = await s.run(['doctor'])
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toContain('✗ frames: the app is not producing frames (lifecycle: detached)')
    } finally {
      await s.close()
    }
  })

  it('an app without tapir is driven zero-install, and an app that is gone fails the vm service check', async () => {
    const s = await simSession({faults: {extensionsMissing: true}})
    try {
      const missing = await s.run(['doctor'])
      expect(missing.exitCode).toBe(0)
      expect(missing.stdout).toMatch(/^✓ tapir: zero-install: the app runs no tapir package.*\(run tapir install\)\.$/m)
      await s.sim.close()
      const gone = await tapir(['doctor', '--state', sessionFile(s.dir, s.sim.httpUri)])
      expect(gone.exitCode).toBe(1)
      expect(gone.stdout).toMatch(/^✗ vm service: Cannot reach the app's VM Service at ws:\/\/127\.0\.0\.1:\d+\/\*\*\*\/ws/m)
    } finally {
      await s.close()
    }
  })
})
