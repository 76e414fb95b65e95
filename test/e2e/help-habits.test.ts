import {describe, expect, it} from 'vitest'
import {tapir} from '../helpers/cli.js'

describe('help a person can trust', () => {
  it('an unknown command suggests the nearest command when one is close', async () => {
    const result = await tapir(['tapir:nope'])
    expect(result).toMatchObject({exitCode: 1, stdout: '', stderr: '✗ Unknown command tapir:nope. See `tapir --help` for the commands.'})
    for (const [typed, meant] of [
      ['snap', 'tapir:snap'],
      ['tapir:snpa', 'tapir:snap'],
      ['perf-run', 'tapir:perf_run'],
      ['hot_restart', 'hot-restart'],
      ['Stop', 'stop'],
    ])
      expect(await tapir([typed!]), typed).toMatchObject({
        exitCode: 1,
        stdout: '',
        stderr: `✗ Unknown command ${typed}. Did you mean \`tapir ${meant}\`? See \`tapir --help\` for the commands.`,
      })
  })

  // Ten runs through oclif, which loads every command for help: side by side, and with time for
  // a busy machine.
  it('-h is --help for every command, a catalogue verb among them', async () => {
    const cases = [['-h'], ['tapir:tap', '-h'], ['start', '-h'], ['tapir:run', '-h'], ['mcp:serve', '-h']]
    const runs = await Promise.all(
      cases.map(async (args) => [await tapir(args), await tapir(args.map((arg) => (arg === '-h' ? '--help' : arg)))] as const),
    )
    for (const [index, [short, long]] of runs.entries()) {
      const args = cases[index]!.join(' ')
      expect(short.exitCode, args).toBe(0)
      expect(short.stdout, args).toBe(long.stdout)
      expect(short.stdout).toContain('USAGE')
    }
  }, 90_000)

  it("a required flag left out is reported in the verb's own words, exit 1", async () => {
    expect(await tapir(['tapir:tap'])).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: '✗ Missing --ref=<eN>. Run tapir:snap first to obtain refs.',
    })
    expect(await tapir(['tapir:select_option', '--ref=e1'])).toMatchObject({exitCode: 1, stderr: '✗ Missing --value=<string>.'})
  })
})
