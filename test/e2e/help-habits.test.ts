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

  it('-h is --help for every command, on the ordinary path and where the fast path would serve', async () => {
    for (const args of [['-h'], ['tapir:tap', '-h'], ['start', '-h'], ['tapir:run', '-h'], ['mcp:serve', '-h']]) {
      const short = await tapir(args)
      const long = await tapir(args.map((arg) => (arg === '-h' ? '--help' : arg)))
      expect(short.exitCode, args.join(' ')).toBe(0)
      expect(short.stdout, args.join(' ')).toBe(long.stdout)
      expect(short.stdout).toContain('USAGE')
    }
  })

  it("a required flag left out is reported in the verb's own words, exit 1", async () => {
    expect(await tapir(['tapir:tap'])).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: '✗ Missing --ref=<eN>. Run tapir:snap first to obtain refs.',
    })
    expect(await tapir(['tapir:select_option', '--ref=e1'])).toMatchObject({exitCode: 1, stderr: '✗ Missing --value=<string>.'})
  })
})
