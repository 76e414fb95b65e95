import {join} from 'node:path'
import {execa} from 'execa'
import {afterAll, describe, expect, it} from 'vitest'
import {VERBS} from '../../src/lib/verbs/index.js'
import {tapir, tempDir} from '../helpers/cli.js'

describe('shell completion (@oclif/plugin-autocomplete)', () => {
  const home = tempDir('tapir-autocomplete-')
  const env = {XDG_CACHE_HOME: join(home.path, 'cache')}
  afterAll(() => home.remove())

  it('tapir autocomplete --help explains the set-up for bash, zsh and powershell', async () => {
    const help = await tapir(['autocomplete', '--help'], {home: home.path, env})
    expect(help.exitCode).toBe(0)
    expect(help.stdout).toContain('Display autocomplete installation instructions.')
    expect(help.stdout).toContain('(zsh|bash|powershell)')
  })

  it('builds a bash completion that completes tapir verbs and their flags', async () => {
    const create = await tapir(['autocomplete:create'], {home: home.path, env})
    expect(create.exitCode, create.stderr).toBe(0)
    const script = join(env.XDG_CACHE_HOME, 'tapir', 'autocomplete', 'functions', 'bash', 'tapir.bash')
    // The two helpers come from the bash-completion package, which a bare bash lacks.
    const complete = (words: string[]): Promise<string> =>
      execa('bash', [
        '-c',
        `_get_comp_words_by_ref() { :; }; __ltrim_colon_completions() { :; }; source "$0"; COMP_WORDS=(${words.join(' ')}); COMP_CWORD=${words.length - 1}; _tapir_autocomplete; echo "\${COMPREPLY[@]}"`,
        script,
      ]).then((result) => result.stdout)
    expect(await complete(['tapir', 'tapir:sn'])).toBe('tapir:snap')
    expect(await complete(['tapir', 'start', '--fa'])).toBe('--fault')
    const all = (await complete(['tapir', "''"])).split(' ')
    for (const id of ['start', 'stop', 'status', 'attach', 'tapir:run', 'mcp:serve', ...VERBS.map((verb) => `tapir:${verb.name}`)])
      expect(all, id).toContain(id)
  })
})
