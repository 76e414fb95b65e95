import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {exitCodeFor} from '../../src/lib/output/exit-codes.js'
import {interpolate} from '../../src/lib/perf/interpolate.js'
import {ScenarioError, loadScenario, loadScenarios} from '../../src/lib/perf/scenario-file.js'
import {maskSecrets, scenarioJson} from '../../src/lib/perf/secrets.js'
import {tempDir} from '../helpers/cli.js'

const dir = tempDir('tapir-scenario-')
afterAll(() => dir.remove())

function file(name: string, text: string): string {
  const path = join(dir.path, name)
  mkdirSync(join(path, '..'), {recursive: true})
  writeFileSync(path, text)
  return path
}

function problemsOf(path: string, options: {variant?: string; env?: Record<string, string>} = {}): string[] {
  try {
    loadScenario(path, {variant: options.variant, env: options.env ?? {}})
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError)
    return (error as ScenarioError).problems
  }
  throw new Error('the scenario loaded')
}

file(
  'fragments/login.yaml',
  `params:
  email: {}
  password: {secret: true}
  button: {default: Sign in}
when: {text: Sign in, unless_text: Monitors, timeout_ms: 5000}
steps:
  - fill: {target: {key: email}, text: "\${email}"}
  - fill: {target: {key: password}, text: "\${password}"}
  - tap: {target: {role: button, name: "\${button}"}}
`,
)

const full = file(
  'list.yaml',
  `name: list
platforms: [chrome, sim]
repeat: 2
thresholds: {warn: 5, error: 15}
setup:
  - hot_restart
  - include: fragments/login.yaml
    with: {email: ada@example.com, password: "\${env.PERF_PASSWORD}"}
  - wait_for_text: {text: Monitors, timeout_ms: 9000}
  - wait_for_network_idle
steps:
  - scroll: {target: {text: Monitors}, dy: 600}
  - wait: 200
  - tap: {target: {text: api-eu, index: 1}}
  - type: {target: {label: Search}, text: "costs $$5"}
  - wheel: {target: {key: list}, dy: 120, ticks: 3}
    only: [chrome]
  - navigate: /settings
variants:
  small: {repeat: 4}
  wide: {platforms: [chrome]}
`,
)

describe('loadScenario: the full grammar', () => {
  it('reads setup, a fragment with params and a secret, targets, only and a variant', () => {
    const scenario = loadScenario(full, {variant: 'small', env: {PERF_PASSWORD: 'hunter22'}})
    expect(scenario).toMatchObject({
      name: 'list-small',
      variant: 'small',
      platforms: ['chrome', 'sim'],
      repeat: 4,
      thresholds: {warn: 5, error: 15},
      secrets: ['hunter22'],
    })
    expect(scenario.setup[0]).toEqual({verb: 'hot_restart'})
    expect(scenario.setup[1]).toEqual({
      verb: 'include',
      path: 'fragments/login.yaml',
      when: {text: 'Sign in', unlessText: 'Monitors', timeoutMs: 5000},
      setup: [
        {verb: 'fill', target: {by: 'key', key: 'email'}, text: {text: 'ada@example.com', secret: false}},
        {verb: 'fill', target: {by: 'key', key: 'password'}, text: {text: 'hunter22', secret: true}},
        {verb: 'tap', target: {by: 'role', role: 'button', name: 'Sign in', index: 0}},
      ],
    })
    expect(scenario.setup.slice(2)).toEqual([{verb: 'wait_for_text', text: 'Monitors', timeoutMs: 9000}, {verb: 'wait_for_network_idle'}])
    expect(scenario.steps).toEqual([
      {verb: 'scroll', target: {by: 'text', text: 'Monitors', index: 0}, dx: 0, dy: 600},
      {verb: 'wait', ms: 200},
      {verb: 'tap', target: {by: 'text', text: 'api-eu', index: 1}},
      {verb: 'type', target: {by: 'label', label: 'Search'}, text: {text: 'costs $5', secret: false}},
      {verb: 'wheel', target: {by: 'key', key: 'list'}, dx: 0, dy: 120, ticks: 3, only: ['chrome']},
      {verb: 'navigate', route: '/settings'},
    ])
  })
  it('writes a secret as *** in the run file and masks it in any text', () => {
    const scenario = loadScenario(full, {variant: 'small', env: {PERF_PASSWORD: 'hunter22'}})
    const json = JSON.stringify(scenarioJson(scenario))
    expect(json).not.toContain('hunter22')
    expect(json).toContain('"text":"***"')
    expect(json).toContain('"text":"ada@example.com"')
    expect(maskSecrets('typed hunter22 into password', scenario.secrets)).toBe('typed *** into password')
  })
  it('requires --variant when variants exist and refuses it when they do not', () => {
    expect(problemsOf(full, {env: {PERF_PASSWORD: 'hunter22'}})).toEqual([
      'variants: this file declares small, wide; name one of them as the variant',
    ])
    expect(problemsOf(full, {variant: 'tall', env: {PERF_PASSWORD: 'hunter22'}})).toEqual([
      'variant tall: not declared here (declared: small, wide)',
    ])
    const plain = file('plain.yaml', 'name: plain\nsteps:\n  - wait: 100\n')
    expect(loadScenario(plain, {env: {}})).toMatchObject({
      name: 'plain',
      repeat: 3,
      platforms: ['chrome', 'android', 'ios', 'sim'],
      thresholds: {warn: 10, error: 25},
    })
    expect(problemsOf(plain, {variant: 'x'})).toEqual(['variant x: this file declares no variants; leave the variant out'])
  })
  it('checks each variant with its own platforms (wheel allowed once a variant is Chrome only)', () => {
    const wheel = file(
      'wheel.yaml',
      'name: w\nsteps:\n  - wheel: {target: {key: list}, dy: 1}\nvariants:\n  web: {platforms: [chrome]}\n  all: {}\n',
    )
    expect(loadScenario(wheel, {variant: 'web', env: {}}).name).toBe('w-web')
    expect(problemsOf(wheel, {variant: 'all'})).toEqual(['steps[0] (wheel): wheel runs only on Chrome. Add `only: [chrome]`'])
  })
  it('reads every variant of a file from one reading of it, or the file itself when it declares none', () => {
    const both = file('both.yaml', 'name: b\nsteps:\n  - wait: 10\nvariants:\n  small: {repeat: 1}\n  large: {repeat: 5}\n')
    expect(loadScenarios(both, {}).map((scenario) => [scenario.name, scenario.repeat])).toEqual([
      ['b-small', 1],
      ['b-large', 5],
    ])
    const single = file('single.yaml', 'name: s\nsteps:\n  - wait: 10\n')
    expect(loadScenarios(single, {}).map((scenario) => scenario.name)).toEqual(['s'])
    expect(() => loadScenarios(file('list.yaml', '- wait: 10\n'), {})).toThrow(ScenarioError)
  })
})

describe('loadScenario: every problem at once', () => {
  it('lists five problems of one file together', () => {
    const bad = file(
      'bad.yaml',
      `name: Bad Name
repeat: 0
colour: blue
steps:
  - tap: {target: {text: Save, key: save}}
  - navigate: "\${env.HOME_ROUTE}"
`,
    )
    const problems = problemsOf(bad, {env: {HOME_ROUTE: '/home'}})
    expect(problems).toEqual([
      'scenario: unknown key colour (allowed: name, viewport, platforms, setup, steps, repeat, thresholds, variants)',
      'name: required, lower-case letters, digits, _ and - only (it names the run file; got "Bad Name")',
      'repeat: must be a positive integer (got 0)',
      'steps[0] (tap).target: a target has exactly one of text, label, role, key (got text, key)',
      'steps[1] (navigate): a secret may only be typed (the text of fill or type)',
    ])
    try {
      loadScenario(bad, {env: {HOME_ROUTE: '/home'}})
    } catch (error) {
      expect((error as Error).message.split('\n')).toEqual(['Invalid perf scenario:', ...problems.map((p) => `- ${p}`)])
      expect(exitCodeFor(error)).toBe(1)
    }
  })
  it('refuses refs, short secrets, bad roles, index on key, zero scrolls, setup-only verbs in steps and only on setup verbs', () => {
    const bad = file(
      'bad2.yaml',
      `name: bad2
platforms: [sim]
setup:
  - navigate: /x
    only: [sim]
  - include: missing.yaml
steps:
  - tap: {ref: e5, target: {key: a, index: 2}}
  - type: {target: {role: menu, name: x}, text: "\${env.PIN}"}
  - scroll: {target: {text: List}}
  - hot_restart: null
  - press_key: {key: Tab}
    only: [chrome]
`,
    )
    expect(problemsOf(bad, {env: {PIN: '123'}})).toEqual([
      'setup[0] (navigate): only is for gestures, not navigate',
      'missing.yaml: cannot read (no such file)',
      'steps[0] (tap): ref is not allowed: a ref is stale after the next navigate; name the widget with target',
      'steps[0] (tap).target: index is not allowed on a key target (a key names one widget)',
      'steps[1] (type).target.role: must be one of button, textbox, checkbox, link, heading, image (got "menu")',
      'steps[1] (type).text: a secret must be at least 4 characters',
      'steps[2] (scroll): scroll needs a non-zero dx or dy',
      'steps[3]: unknown step verb hot_restart (steps: tap, fill, type, press_key, scroll, wheel, drag, navigate, resize, wait)',
      'steps[4] (press_key).only: "chrome" not among sim',
    ])
  })
  it('refuses include cycles, missing params, unknown with keys and includes in steps', () => {
    file('cycle-a.yaml', 'steps:\n  - include: cycle-b.yaml\n')
    file('cycle-b.yaml', 'steps:\n  - include: cycle-a.yaml\n')
    const top = file(
      'cycle.yaml',
      'name: c\nsetup:\n  - include: cycle-a.yaml\n  - include: fragments/login.yaml\n    with: {colour: red}\nsteps:\n  - include: cycle-a.yaml\n',
    )
    expect(problemsOf(top)).toEqual([
      'cycle-b.yaml: steps[0] (include): cycle-a.yaml includes itself (cycle.yaml -> cycle-a.yaml -> cycle-b.yaml -> cycle-a.yaml)',
      'setup[1] (include).with: fragments/login.yaml has no param colour (params: email, password, button)',
      'setup[1] (include): fragments/login.yaml needs param email; pass it in with:',
      'setup[1] (include): fragments/login.yaml needs param password; pass it in with:',
      'steps[0]: unknown step verb include (includes belong in setup) (steps: tap, fill, type, press_key, scroll, wheel, drag, navigate, resize, wait)',
    ])
  })
  it('reports an unset or too-short secret once, not again at every place it is used', () => {
    const text = (password: string) =>
      `name: s\nsetup:\n  - include: fragments/login.yaml\n    with: {email: ada@example.com, password: ${password}}\nsteps:\n  - wait: 10\n`
    const fromEnv = file('secret-once.yaml', text('"${env.PERF_PASSWORD}"'))
    expect(problemsOf(fromEnv)).toEqual([
      'setup[0] (include).with.password: environment variable PERF_PASSWORD is not set (${env.PERF_PASSWORD})',
    ])
    expect(problemsOf(fromEnv, {env: {PERF_PASSWORD: 'abc'}})).toEqual([
      'setup[0] (include).with.password: a secret must be at least 4 characters',
    ])
    expect(problemsOf(file('short-param.yaml', text('abc')))).toEqual([
      'setup[0] (include).with.password: a secret must be at least 4 characters',
    ])
  })

  it('reports YAML syntax errors and a file that is not a map', () => {
    expect(problemsOf(file('broken.yaml', 'name: [unclosed\n'))[0]).toMatch(/^.*broken\.yaml: YAML: /)
    expect(problemsOf(file('list-only.yaml', '- a\n- b\n'))).toEqual(['the file must be a YAML map (name, steps, ...)'])
  })

  it('reports a broken YAML file once, at the line and column of its first error', () => {
    // A Markdown fence pasted along with the scenario: the parser objects to every token after it.
    const pasted = file('pasted.yaml', '```yaml\nname: list\nrepeat: 3\nsteps:\n  - wait: 10\n```\n')
    const problems = problemsOf(pasted)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/pasted\.yaml: YAML: line 1, column 1: .+ \(and \d+ more error\(s\) that may follow from it\)$/)
    expect(problemsOf(file('late.yaml', 'name: list\nrepeat: [3\n'))).toEqual([
      expect.stringMatching(/late\.yaml: YAML: line \d, column \d+: [^(]+$/),
    ])
  })
})

describe('interpolate', () => {
  const scope = {
    params: new Map([
      ['who', {text: 'ada', secret: false}],
      ['pin', {text: '1234', secret: true}],
    ]),
    env: {TOKEN: 'abcd'},
  }
  const run = (raw: string) => {
    const problems: string[] = []
    return {...interpolate(raw, scope, (p) => problems.push(p)), problems}
  }
  it('fills params and env, turns $$ into $ and keeps a lone $', () => {
    expect(run('hi ${who}, $$5 or $5')).toEqual({text: 'hi ada, $5 or $5', secret: false, problems: []})
    expect(run('${env.TOKEN}')).toEqual({text: 'abcd', secret: true, problems: []})
    expect(run('pin ${pin}')).toEqual({text: 'pin 1234', secret: true, problems: []})
  })
  it('names an unclosed ${, an unknown param and an unset variable', () => {
    expect(run('a ${who').problems).toEqual(['unclosed ${ in "a ${who" (write $$ for a literal $)'])
    expect(run('${nobody}').problems).toEqual(['unknown parameter ${nobody} (this fragment takes who, pin)'])
    expect(run('${env.NOPE}').problems).toEqual(['environment variable NOPE is not set (${env.NOPE})'])
  })
})
