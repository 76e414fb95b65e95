import * as Parser from '@oclif/core/parser'
import {describe, expect, it} from 'vitest'
import {readVerbLine} from '../../src/cli/command-line.js'
import {kebabCase} from '../../src/cli/flag-rules.js'
import {UsageError} from '../../src/lib/errors.js'
import {VERBS} from '../../src/lib/verbs/index.js'
import type {Param, Verb} from '../../src/lib/verbs/types.js'
import {verbCommand} from '../../src/oclif/verb-command.js'

// The one reader of a verb's command line (src/cli/command-line.ts) took over from oclif's parser,
// which still serves as the reference: wherever oclif took a line, the reader takes it with the
// very same flags and arguments, and wherever oclif refused one, the reader refuses it too, in
// one line that names the help to read. The few forms where the two differ are listed, each why.

interface Case {
  argv: string[]
  /** A form the reader must take (when oclif takes it too); the rest it must leave to oclif. */
  plain: boolean
}

const textFor = (param: Param): string =>
  param.options?.[0] ?? {string: 'some text', integer: '7', number: '2.5', 'string[]': 'a,b', boolean: ''}[param.type]

/** What every case is given so a verb's required flags do not refuse it. */
function requiredArgv(verb: Verb): string[] {
  const positional = new Set(verb.positional ?? [])
  return verb.params
    .filter((param) => param.required && !param.mcpOnly && !positional.has(param.name))
    .flatMap((param) => [`--${param.name}`, textFor(param)])
}

function valueCases(param: Param): Array<[string, boolean]> {
  if (param.passThrough)
    return [
      ['anything', true],
      ['', true],
    ]
  if (param.options) return [...param.options.map((option): [string, boolean] => [option, true]), ['not-an-option', false]]
  switch (param.type) {
    case 'integer':
      return [
        ['5', true],
        ['-3', true],
        ['0', true],
        ['1.5', false],
        ['abc', false],
        ['', false],
        ['007', true],
      ]
    case 'number':
      return [
        ['2.5', true],
        ['-1', true],
        ['1e3', true],
        ['abc', false],
        ['', false],
        [' ', false],
        ['Infinity', false],
      ]
    case 'string[]':
      return [
        ['a,b, c', true],
        ['', true],
        [',,', true],
      ]
    default:
      return [
        ['hello world', true],
        ['', true],
        ['-x', true],
        ['--not-a-flag', true],
        ['a=b', true],
        ['--json', false],
        ['-json', true],
        ['--json=x', true],
        ['--state=x', true],
        // oclif looks flags up in plain objects: these find one there, so it sees no value.
        ['--toString', false],
        ['--__proto__', false],
        ['--constructor', false],
      ]
  }
}

function casesFor(verb: Verb): Case[] {
  const base = requiredArgv(verb)
  const cases: Case[] = [{argv: base, plain: true}]
  const add = (argv: string[], plain: boolean) => cases.push({argv: [...base, ...argv], plain}, {argv: [...argv, ...base], plain})
  for (const param of verb.params.filter((candidate) => !candidate.mcpOnly)) {
    for (const spelling of new Set([param.name, kebabCase(param.name)])) {
      const flag = `--${spelling}`
      if (param.type === 'boolean' && !param.passThrough) {
        add([flag], true)
        add([`--no-${spelling}`], true)
        add([flag, `--no-${spelling}`], true)
        add([`${flag}=true`], false)
        continue
      }
      // A flag with a bare meaning (expect --a11y) takes its value only after `=`, which oclif's
      // parser cannot say: its bare and spaced forms are held by the test below instead.
      for (const [text, plain] of valueCases(param)) {
        if (param.bare === undefined) add([flag, text], plain)
        add([`${flag}=${text}`], plain)
      }
      if (param.bare !== undefined) continue
      add([flag], false)
      add([flag, textFor(param), flag, textFor(param)], false)
    }
  }
  for (const [index, name] of (verb.positional ?? []).entries()) {
    const words = Array.from({length: index + 1}, (_, at) => `word${at}`)
    add(words, true)
    add([...words.slice(0, -1), '-'], true)
    if (verb.params.find((param) => param.name === name)) add([...words.slice(0, -1), `--${name}`, 'same', 'same'], true)
  }
  add(['one', 'two', 'three', 'four'], false)
  add(['--json'], true)
  add(['--json', '--json'], true)
  add(['--no-json'], false)
  add(['--state', '/some/state.json'], true)
  add(['--state=/some/state.json'], true)
  add(['--timeout', '5'], true)
  add(['--timeout=90000'], true)
  add(['--timeout', '0'], false)
  add(['--timeout', 'soon'], false)
  add(['--timeout', '5', '--timeout', '6'], false)
  add(['--'], false)
  add(['--', 'x'], false)
  add(['-j'], false)
  add(['-5'], false)
  add(['--nope'], false)
  add(['--nope=1'], false)
  add(['--constructor'], false)
  add(['--__proto__=1'], false)
  return cases
}

// What Command.parse does, less its preparse hook, which tapir does not have.
async function oclifRead(verb: Verb, argv: string[]) {
  const Command = verbCommand(verb)
  try {
    return await Parser.parse(argv, {flags: {...Command.baseFlags, ...Command.flags}, args: Command.args, strict: true})
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
}

/** Forms oclif refused for a reason of its own that tapir does not keep. */
function lenient(argv: readonly string[]): string | undefined {
  // oclif looks flags up in plain objects, so a value spelt like Object.prototype's keys is a flag to it.
  if (argv.some((word) => /^--(toString|__proto__|constructor)$/.test(word))) return 'a prototype key as a value'
  // oclif refused `--text=--json` as a value left out; after `=` the value is plain.
  if (argv.some((word) => /^--[^=]+=--/.test(word))) return 'a value after = that starts with --'
  // oclif took `--timing=true` as --timing and an argument "true"; a boolean takes no value.
  if (argv.some((word) => /^--[^=]+=true$/.test(word))) return 'a boolean given a value'
  return undefined
}

function readerOn(verb: Verb, argv: string[]) {
  try {
    return readVerbLine(verb, argv)
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
}

describe("the one reader of a verb's command line", () => {
  it('reads a bare flag as its bare value, and the word after it as an argument (expect --a11y)', () => {
    const expectVerb = VERBS.find((verb) => verb.name === 'expect')!
    expect(readVerbLine(expectVerb, ['--a11y']).flags.a11y).toBe('all')
    expect(readVerbLine(expectVerb, ['--a11y=label,contrast']).flags.a11y).toBe('label,contrast')
    expect(readVerbLine(expectVerb, ['--a11y', '--text=Hi']).flags).toMatchObject({a11y: 'all', text: 'Hi'})
    expect(() => readVerbLine(expectVerb, ['--a11y', 'label'])).toThrow(/Unexpected argument: label/)
  })

  for (const verb of VERBS) {
    it(`reads tapir:${verb.name} as oclif did, and refuses what it refused`, async () => {
      for (const {argv} of casesFor(verb)) {
        const reader = readerOn(verb, argv)
        const oclif = await oclifRead(verb, argv)
        const shown = `tapir:${verb.name} ${JSON.stringify(argv)}`
        if (oclif instanceof Error) {
          if (lenient(argv) !== undefined && !(reader instanceof Error)) continue
          expect(reader, `${shown}: oclif said ${oclif.message}`).toBeInstanceOf(UsageError)
          const message = (reader as Error).message
          expect(message, shown).not.toContain('\n')
          expect(message, shown).toMatch(/See `tapir tapir:\S+ --help`\.$|^Missing --/)
          continue
        }
        if (lenient(argv) !== undefined && reader instanceof UsageError) continue
        expect(reader, shown).not.toBeInstanceOf(Error)
        if (reader instanceof Error) continue
        expect(reader.flags, shown).toEqual(oclif.flags)
        expect(reader.args, shown).toEqual(oclif.args)
      }
    })
  }

  it('says what is wrong in the words people know from oclif', () => {
    const snap = VERBS.find((verb) => verb.name === 'snap')!
    const message = (argv: string[]) => (readerOn(snap, argv) as Error).message
    expect(message(['--bogus'])).toBe('Nonexistent flag: --bogus. See `tapir tapir:snap --help`.')
    expect(message(['--bogus=1'])).toBe('Nonexistent flag: --bogus. See `tapir tapir:snap --help`.')
    expect(message(['--depth'])).toBe('Flag --depth expects a value. See `tapir tapir:snap --help`.')
    expect(message(['--depth', '--json'])).toBe('Flag --depth expects a value. See `tapir tapir:snap --help`.')
    expect(message(['--depth=1', '--depth=2'])).toBe('Flag --depth can only be specified once. See `tapir tapir:snap --help`.')
    expect(message(['--depth=deep'])).toBe('Parsing --depth: Expected an integer but received: deep. See `tapir tapir:snap --help`.')
    expect(message(['--timeout=0'])).toBe(
      'Parsing --timeout: Expected an integer greater than or equal to 1 but received: 0. See `tapir tapir:snap --help`.',
    )
    expect(message(['--interactiveOnly=true'])).toBe(
      'Flag --interactiveOnly takes no value; give --interactiveOnly or --no-interactiveOnly. See `tapir tapir:snap --help`.',
    )
    expect(message(['extra'])).toBe('Unexpected argument: extra. See `tapir tapir:snap --help`.')
    // The global --json has no --no-json; a negated spelling is named by its flag.
    expect(message(['--json=true'])).toBe('Flag --json takes no value; give --json. See `tapir tapir:snap --help`.')
    expect(message(['--no-interactive-only=x'])).toBe(
      'Flag --interactiveOnly takes no value; give --interactiveOnly or --no-interactiveOnly. See `tapir tapir:snap --help`.',
    )
    const screenshot = VERBS.find((verb) => verb.name === 'screenshot')!
    expect((readerOn(screenshot, ['--format']) as Error).message).toBe(
      'Flag --format expects one of these values: jpeg, png. See `tapir tapir:screenshot --help`.',
    )
    const tap = VERBS.find((verb) => verb.name === 'tap')!
    expect((readerOn(tap, []) as Error).message).toBe('Missing --ref=<eN>. Run tapir:snap first to obtain refs.')
  })

  it('takes a value that starts with a dash unless it is a flag the verb knows', () => {
    const scroll = VERBS.find((verb) => verb.name === 'scroll')!
    const line = readVerbLine(scroll, ['--ref', 'e2', '--dy', '-200', '--dx=-5'])
    expect(line.flags).toMatchObject({ref: 'e2', dy: -200, dx: -5})
    const fill = VERBS.find((verb) => verb.name === 'fill')!
    expect(readVerbLine(fill, ['--ref=e1', '--text', '--not-a-flag']).flags.text).toBe('--not-a-flag')
    // Only a flag's very spelling ends a value left out: these are text.
    expect(readVerbLine(fill, ['--ref=e1', '--text', '-json']).flags.text).toBe('-json')
    expect(readVerbLine(fill, ['--ref=e1', '--text', '--json=x']).flags.text).toBe('--json=x')
  })
})
