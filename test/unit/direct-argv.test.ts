import * as Parser from '@oclif/core/parser'
import {describe, expect, it} from 'vitest'
import {readVerbArgv} from '../../src/commands/direct-argv.js'
import {verbCommand} from '../../src/commands/verb-command.js'
import {kebabCase} from '../../src/commands/verb-flag-rules.js'
import {VERBS} from '../../src/lib/verbs/index.js'
import type {Param, Verb} from '../../src/lib/verbs/types.js'

// The fast path reads a verb's command line itself (src/commands/direct-argv.ts). Wherever it
// answers, oclif must give the very same flags and arguments; the forms people write must not be
// left to oclif; and every odd form must be left to it, so its errors stay the only ones.

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
      for (const [text, plain] of valueCases(param)) {
        add([flag, text], plain)
        add([`${flag}=${text}`], plain)
      }
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

describe("the fast path's reading of a verb's command line", () => {
  for (const verb of VERBS) {
    it(`reads tapir:${verb.name} as oclif does, and leaves every odd form to oclif`, async () => {
      for (const {argv, plain} of casesFor(verb)) {
        const direct = readVerbArgv(verb, argv)
        const oclif = await oclifRead(verb, argv)
        const shown = `tapir:${verb.name} ${JSON.stringify(argv)}`
        if (direct !== undefined) {
          expect(oclif, shown).not.toBeInstanceOf(Error)
          if (oclif instanceof Error) continue
          expect(direct.flags, shown).toEqual(oclif.flags)
          expect(direct.args, shown).toEqual(oclif.args)
        }
        if (plain && !(oclif instanceof Error)) expect(direct, `${shown} is plain, yet left to oclif`).toBeDefined()
        if (!plain) expect(direct, `${shown} is odd, yet read`).toBeUndefined()
      }
    })
  }

  it('leaves out a required flag to oclif, which says which', () => {
    const verb = VERBS.find((candidate) => requiredArgv(candidate).length > 0)!
    expect(readVerbArgv(verb, [])).toBeUndefined()
    expect(readVerbArgv(verb, requiredArgv(verb))).toBeDefined()
  })
})
