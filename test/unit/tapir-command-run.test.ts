import {Config} from '@oclif/core/config'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {VERBS} from '../../src/lib/verbs/index.js'
import {verbCommand} from '../../src/oclif/verb-command.js'

const Snap = verbCommand(VERBS.find((verb) => verb.name === 'snap')!)

describe("a tapir command's run", () => {
  afterEach(() => vi.restoreAllMocks())

  it('runs on the Config oclif hands it, loaded already, instead of loading a second one from it', async () => {
    const loaded = Object.create(Config.prototype) as Config
    const load = vi.spyOn(Config, 'load')
    const ran = vi.spyOn(Snap.prototype as any, '_run').mockResolvedValue('ran')
    await expect(Snap.run(['--interactiveOnly'], loaded)).resolves.toBe('ran')
    expect(load).not.toHaveBeenCalled()
    expect(ran.mock.contexts[0]).toMatchObject({argv: ['--interactiveOnly'], config: loaded})
  })

  it('loads a Config as oclif does when given anything else', async () => {
    const loaded = Object.create(Config.prototype) as Config
    const load = vi.spyOn(Config, 'load').mockResolvedValue(loaded)
    vi.spyOn(Snap.prototype as any, '_run').mockResolvedValue('ran')
    await expect(Snap.run([], '/some/root')).resolves.toBe('ran')
    expect(load).toHaveBeenCalledWith('/some/root')
  })
})
