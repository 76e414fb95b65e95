import {describe, expect, it} from 'vitest'
import {cliSummary} from '../../src/lib/verbs/define.js'
import {VERBS} from '../../src/lib/verbs/index.js'
import {defaultFor} from '../../src/lib/verbs/input.js'
import {tapir} from '../helpers/cli.js'

/** One `--help` run per verb, shared by the tests that read it. */
const helpRuns = new Map<string, ReturnType<typeof tapir>>()
const helpOf = (name: string) => {
  if (!helpRuns.has(name)) helpRuns.set(name, tapir([`tapir:${name}`, '--help']))
  return helpRuns.get(name)!
}

describe('help', () => {
  it('tapir --help lists every verb and the session commands', async () => {
    const help = await tapir(['--help'])
    expect(help.exitCode).toBe(0)
    for (const id of [
      'attach',
      'start',
      'status',
      'stop',
      'mcp:serve',
      'mcp:install',
      'mcp:uninstall',
      'install',
      'uninstall',
      'doctor',
      'tapir:run',
      ...VERBS.map((verb) => `tapir:${verb.name}`),
    ]) {
      expect(help.stdout, id).toMatch(new RegExp(`^  ${id} `, 'm'))
    }
  })

  it('every verb documents every flag with its description', async () => {
    const pending = [...VERBS]
    const worker = async () => {
      for (let verb = pending.pop(); verb; verb = pending.pop()) {
        const help = await helpOf(verb.name)
        expect(help.exitCode, verb.name).toBe(0)
        const text = help.stdout.replace(/\s+/g, ' ')
        expect(text).toContain(cliSummary(verb).replace(/\s+/g, ' '))
        for (const param of verb.params.filter((candidate) => !candidate.mcpOnly)) {
          expect(text, `${verb.name} --${param.name}`).toMatch(new RegExp(`--(\\[no-\\])?${param.name}\\b`))
          expect(text, `${verb.name} --${param.name} description`).toContain(param.description.replace(/\s+/g, ' ').slice(0, 30))
        }
      }
    }
    await Promise.all([worker(), worker(), worker()])
  }, 120_000)

  it("each verb's help has exactly the catalogue's flags, options, defaults and example", async () => {
    const pending = [...VERBS]
    const worker = async () => {
      for (let verb = pending.pop(); verb; verb = pending.pop()) {
        const {stdout, exitCode} = await helpOf(verb.name)
        expect(exitCode, verb.name).toBe(0)
        const usage = stdout.slice(stdout.indexOf('USAGE'), stdout.indexOf('\n\n', stdout.indexOf('USAGE')))
        const listed = [...usage.matchAll(/(\[?)--([\w-]+)/g)].map((match) => (match[1] ? `[${match[2]}]` : match[2]))
        const cliParams = verb.params.filter((param) => !param.mcpOnly)
        const positional = verb.positional ?? []
        // A required flag stands bare in the usage line, an optional one in brackets; a value that
        // may come as an argument is shown as that argument, bare when required.
        const expected = [
          '[json]',
          '[state]',
          '[timeout]',
          ...cliParams
            .filter((param) => !positional.includes(param.name))
            .map((param) => (param.required ? param.name : `[${param.name}]`)),
        ]
        expect([...listed].sort(), verb.name).toEqual(expected.sort())
        for (const name of positional) {
          const param = verb.params.find((candidate) => candidate.name === name)!
          const arg = name.toUpperCase()
          expect(usage, `${verb.name} ${arg}`).toMatch(new RegExp(param.required ? ` ${arg} ` : ` \\[${arg}\\] `))
        }
        for (const param of cliParams.filter((candidate) => candidate.required && !positional.includes(candidate.name)))
          expect(stdout.replace(/\s+/g, ' '), `${verb.name} --${param.name} (required)`).toMatch(
            new RegExp(` --${param.name}=\\S+ \\(required\\) `),
          )
        const text = stdout.replace(/\s+/g, ' ')
        for (const param of cliParams) {
          if (param.options && !param.passThrough)
            expect(text, `${verb.name} --${param.name}`).toContain(`<options: ${param.options.join('|')}>`)
          const fallback = param.passThrough ? undefined : defaultFor(param, 'cli')
          const entry = text.slice(text.indexOf(` --${param.type === 'boolean' ? '[no-]' : ''}${param.name}`))
          if (fallback !== undefined && param.type !== 'boolean')
            expect(entry, `${verb.name} --${param.name} default`).toMatch(new RegExp(`^ \\S+ \\[default: ${String(fallback)}\\]`))
        }
        expect(stdout, verb.name).toContain(`$ tapir tapir:${verb.name}${verb.example ? ` ${verb.example}` : ''}\n`)
      }
    }
    await Promise.all([worker(), worker(), worker()])
  }, 120_000)

  it('an unknown command exits 1 and says so', async () => {
    const result = await tapir(['tapir:nope'])
    expect(result).toMatchObject({exitCode: 1, stdout: '', stderr: '✗ Unknown command tapir:nope. See `tapir --help` for the commands.'})
  })
})
