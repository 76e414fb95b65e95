import * as Parser from '@oclif/core/parser'
import {describe, expect, it} from 'vitest'
import {HelpAsked, readCommandLine} from '../../src/cli/command-line.js'
import {COMMANDS} from '../../src/commands/list.js'
import type {AnyCommand, CommandParam} from '../../src/lib/commands/types.js'
import {UsageError} from '../../src/lib/errors.js'
import {commandClass} from '../../src/oclif/command-class.js'

// The one reader reads every command's line (src/cli/command-line.ts); oclif's parser, which read
// them before, stays the reference: wherever oclif took a line, the reader takes it with the same
// values, and wherever oclif refused one, the reader refuses it in one line naming the help. The
// forms where the two differ on purpose are listed in docs/cli-reading.md, each below by name.

const textFor = (param: CommandParam): string =>
  param.options?.[0] ??
  {string: 'some text', integer: String(param.minimum ?? 7), number: '2.5', 'string[]': 'a,b', boolean: ''}[param.type]

function requiredArgv(command: AnyCommand): string[] {
  const positional: readonly string[] = command.positional ?? []
  return [
    ...positional.flatMap((name) => {
      const param = command.params.find((candidate) => candidate.name === name)!
      return param.required ? [textFor(param)] : []
    }),
    ...command.params
      .filter((param) => param.required && !positional.includes(param.name))
      .flatMap((param) => [`--${param.name}`, textFor(param)]),
  ]
}

function casesFor(command: AnyCommand): string[][] {
  const base = requiredArgv(command)
  const cases: string[][] = [base]
  const add = (argv: string[]) => cases.push([...base, ...argv], [...argv, ...base])
  const positional: readonly string[] = command.positional ?? []
  for (const param of command.params.filter((candidate) => !positional.includes(candidate.name))) {
    const flag = `--${param.name}`
    if (param.type === 'boolean') {
      add([flag])
      add([`--no-${param.name}`])
      add([`${flag}=false`])
      add([`${flag}=true`])
      continue
    }
    const text = textFor(param)
    add([flag, text])
    add([`${flag}=${text}`])
    add([flag])
    add([flag, '--json'])
    add([flag, '-h'])
    if (param.options) add([flag, 'not-an-option'])
    if (param.type === 'integer') {
      add([flag, 'abc'])
      add([flag, '99999999'])
    }
    add([flag, text, flag, text])
    if (param.char) add([`-${param.char}`])
  }
  // An argument that is not one of its options (`record begin`), in its place among the required ones.
  positional.forEach((name, at) => {
    const param = command.params.find((candidate) => candidate.name === name)!
    if (param.options && param.required) cases.push(base.map((word, index) => (index === at ? 'not-an-option' : word)))
  })
  add(['--nope'])
  add(['extra'])
  add(['--', 'after'])
  add(['--json'])
  add(['--state', '/some/state.json'])
  add(['--timeout', '0'])
  return cases
}

async function oclifRead(command: AnyCommand, argv: string[]) {
  const Class = commandClass(command, COMMANDS)
  try {
    return await Parser.parse(argv, {flags: {...Class.baseFlags, ...Class.flags}, args: Class.args, strict: Class.strict})
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
}

function readerOn(command: AnyCommand, argv: string[]) {
  try {
    return readCommandLine(command, argv)
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
}

/** A form where the reader differs from oclif on purpose (docs/cli-reading.md), by name. */
function difference(command: AnyCommand, argv: readonly string[]): string | undefined {
  const booleans = command.params.filter((param) => param.type === 'boolean').map((param) => param.name)
  if (argv.some((word) => booleans.some((name) => word.startsWith(`--${name}=`)))) return 'a boolean takes no value'
  if (argv.some((word) => booleans.some((name) => word === `--no-${name}`))) return 'every boolean has its --no-'
  if (argv.includes('-h')) return '-h as a value'
  if (argv.includes('--') || argv.includes('extra')) return 'rest words'
  const repeatable = command.params.filter((param) => param.multiple).map((param) => `--${param.name}`)
  // oclif took the words after a repeatable flag's value as more values, up to the next flag.
  if (argv.some((word, at) => repeatable.includes(word) && argv[at + 2] !== undefined && !argv[at + 2]!.startsWith('-')))
    return 'one value per repeatable flag'
  return undefined
}

describe("the one reader of a command's line", () => {
  for (const command of COMMANDS) {
    it(`reads ${command.id} as oclif did, and refuses what it refused, but where docs/cli-reading.md says`, async () => {
      for (const argv of casesFor(command)) {
        const shown = `${command.id} ${JSON.stringify(argv)}`
        const reader = readerOn(command, argv)
        if (reader instanceof HelpAsked) continue
        const oclif = await oclifRead(command, argv)
        const differs = difference(command, argv)
        if (reader instanceof Error) {
          expect(reader, shown).toBeInstanceOf(UsageError)
          expect(reader.message, shown).not.toContain('\n')
          expect(reader.message, shown).toMatch(/See `tapir \S+ --help`\.$/)
          if (differs === undefined) expect(oclif, `${shown}: oclif took it`).toBeInstanceOf(Error)
          continue
        }
        if (oclif instanceof Error) {
          expect(differs, `${shown}: oclif said ${oclif.message}`).toBeDefined()
          continue
        }
        if (differs !== undefined) continue
        const {rest, values} = reader
        const defined = (record: Record<string, unknown>) =>
          Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined))
        // A command with no global flags still gets the input's timeout, which it never reads.
        const {timeout, ...own} = values
        const read = command.globals === 'none' ? own : {...own, timeout}
        expect(defined(read), shown).toEqual(defined({...oclif.flags, ...oclif.args}))
        expect(rest, shown).toEqual([])
      }
    })
  }

  it('refuses a value on a boolean, naming its --no-, for every command', () => {
    const message = (id: string, argv: string[]) =>
      (
        readerOn(
          COMMANDS.find((command) => command.id === id)!,
          argv,
        ) as Error
      ).message
    expect(message('tapir:run', ['--continue=false', 'snap'])).toBe(
      'Flag --continue takes no value; give --continue or --no-continue. See `tapir tapir:run --help`.',
    )
    expect(message('test', ['--bail=false'])).toBe('Flag --bail takes no value; give --bail or --no-bail. See `tapir test --help`.')
    expect(message('start', ['--device=sim', '--dds=true'])).toBe(
      'Flag --dds takes no value; give --dds or --no-dds. See `tapir start --help`.',
    )
  })

  it('takes the rest words where a command takes them, and -h as a value', () => {
    const command = (id: string) => COMMANDS.find((candidate) => candidate.id === id)!
    expect(readCommandLine(command('tapir:run'), ['snap', '--continue', 'tap --ref=e2'])).toMatchObject({
      values: {continue: true},
      rest: ['snap', 'tap --ref=e2'],
    })
    expect(readCommandLine(command('tapir:run'), ['--', '--help'])).toMatchObject({rest: ['--help']})
    expect(readCommandLine(command('start'), ['--device=x', '--', '--flavor=dev', '-h'])).toMatchObject({
      values: {device: 'x'},
      rest: ['--flavor=dev', '-h'],
    })
    expect(() => readCommandLine(command('start'), ['--device=x', 'stray'])).toThrow(
      'Unexpected argument: stray. Arguments for flutter run go after `--` (tapir start --device=<device> -- stray). See `tapir start --help`.',
    )
    expect(readCommandLine(command('start'), ['--device=sim', '--fault', 'latency=2', '--fault=hang=x']).values.fault).toEqual([
      'latency=2',
      'hang=x',
    ])
    expect(readCommandLine(command('logs'), ['-f']).values.follow).toBe(true)
    // A boolean given again: the last spelling wins, as docs/cli-reading.md says.
    expect(readCommandLine(command('tapir:run'), ['--continue', '--no-continue', '--json', '--json']).values).toMatchObject({
      continue: false,
      json: true,
    })
    expect(() => readCommandLine(command('status'), ['--json', '-h'])).toThrow(HelpAsked)
  })
})
