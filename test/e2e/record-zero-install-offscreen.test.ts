import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {tempDir} from '../helpers/cli.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {simSession, type SimSession, ZERO_INSTALL_SIGN_IN_STEPS} from '../helpers/sim.js'

expectNoProcessLeft()

/** Signs in on an app with no package, so it shows /monitors: 20 rows, each with a Pause button,
 *  of which eleven are on screen and nine wholly below the view. */
async function signedIn(s: SimSession): Promise<void> {
  const run = await s.spawn(['tapir:run', ...ZERO_INSTALL_SIGN_IN_STEPS])
  expect(run.exitCode, run.stdout + run.stderr).toBe(0)
}

const SLOW = 120_000

// Zero-install observe lists the on-screen nodes only (docs/zero-install.md, tapir_observe), while
// a snapshot also shows the [offscreen] ones: an observe step a recording writes counts the
// on-screen ones there, or its replay would find fewer candidates than it was written with.
describe('a recorded observe step for a widget with off-screen twins, on an app with no package', () => {
  it(
    'counts only the on-screen twins, and replays on a fresh app',
    async () => {
      const project = tempDir('tapir-record-offscreen-')
      const file = join(project.path, 'pause.tapir')
      const s = await simSession({package: 'none'})
      try {
        await signedIn(s)
        const snap = await s.spawn(['tapir:snap'])
        const pauses = snap.stdout.split('\n').filter((line) => line.startsWith('- button "Pause"'))
        expect(pauses).toHaveLength(20)
        expect(pauses.filter((line) => line.endsWith('[offscreen]'))).toHaveLength(9)
        expect(pauses[2]).toBe('- button "Pause" [ref=e19]')
        expect(await s.spawn(['record', 'start', file])).toMatchObject({exitCode: 0, stderr: ''})
        expect(await s.spawn(['tapir:snap'])).toMatchObject({exitCode: 0, stdout: snap.stdout})
        // DB's Pause, the third of the eleven on screen.
        expect(await s.spawn(['tapir:tap', '--ref=e19'])).toMatchObject({exitCode: 0, stdout: '✓ Tapped e19', stderr: ''})
        expect(await s.spawn(['record', 'stop'])).toMatchObject({exitCode: 0, stderr: ''})
      } finally {
        await s.close()
      }
      const steps = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('#'))
      expect(steps).toEqual(['observe --roles=button --as=pause --label=Pause --nth=3 --matches=11', 'tap --ref=@pause'])
      const fresh = await simSession({package: 'none'})
      try {
        await signedIn(fresh)
        const run = await fresh.spawn(['tapir:run', '--file', file])
        expect(run.exitCode, run.stdout + run.stderr).toBe(0)
        expect(run.stdout).toContain('[2/2] tap --ref=@pause ok:\n✓ Tapped e19')
        const after = await fresh.spawn(['tapir:snap', '--grep=Resume'])
        expect(after.stdout).toContain('- button "Resume"')
        expect(after.stdout.split('\n').filter((line) => line.includes('Resume'))).toHaveLength(1)
      } finally {
        await fresh.close()
        project.remove()
      }
    },
    SLOW,
  )
})
