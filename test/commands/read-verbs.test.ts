import {describe, expect, it} from 'vitest'
import {withSimSession} from '../helpers/sim.js'

describe('tapir:snap, tapir:find, tapir:observe against the sim', () => {
  const s = withSimSession({}, 'in-process')

  it('snap prints the YAML tree with refs and typeable text fields', async () => {
    const result = await s.run(['tapir:snap'])
    expect(result).toMatchObject({exitCode: 0, stderr: ''})
    expect(result.stdout).toBe(
      [
        '- heading "Sign in" [ref=e1]',
        '- textbox "Email" [ref=e2]',
        '  typeable: true',
        '- textbox "Password" [ref=e3]',
        '  typeable: true',
        '- button "Sign in" [ref=e4]',
        '- link "Forgot password?" [ref=e5]',
      ].join('\n'),
    )
  })

  it('verb flags take the kebab-case spelling too, negations included', async () => {
    const camel = await s.run(['tapir:snap', '--interactiveOnly', '--includeEnrichers'])
    expect(camel.exitCode).toBe(0)
    expect(await s.run(['tapir:snap', '--interactive-only', '--include-enrichers'])).toEqual(camel)
    expect(await s.run(['tapir:snap', '--interactive-only', '--no-interactive-only'])).toEqual(await s.run(['tapir:snap']))
    const run = await s.run(['tapir:run', 'find --text=Email', 'tap --ref=q1 --no-check-stable --until-timeout-ms=500'])
    expect(run.exitCode, run.stderr).toBe(0)
  })

  it('snap --grep keeps the matching lines, and an invalid pattern matches literally', async () => {
    expect((await s.run(['tapir:snap', '--grep', 'Pass'])).stdout).toBe('- textbox "Password" [ref=e3]\n  typeable: true')
    const literal = await s.run(['tapir:snap', '--grep', '(', '--json'])
    expect(literal.exitCode).toBe(0)
    expect(JSON.parse(literal.stdout)).toMatchObject({grepLiteral: true})
  })

  it('snap --within an unknown ref is an app error, exit 3', async () => {
    const result = await s.run(['tapir:snap', '--within=e999'])
    expect(result.exitCode).toBe(3)
    expect(result.stderr).toMatch(/^✗ .*e999/)
  })

  it('snap --depth refuses a negative depth before calling the app', async () => {
    const result = await s.run(['tapir:snap', '--depth=-1'])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toBe('✗ --depth must be at least 0 (got -1).')
  })

  it('find prints pretty JSON with a qN handle, preferring the actionable match', async () => {
    const result = await s.run(['tapir:find', '--text', 'Sign in'])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain('\n  "ref": "q')
    expect(JSON.parse(result.stdout)).toMatchObject({ref: expect.stringMatching(/^q\d+$/), matched: true, matchCount: 2})
  })

  it('find with no match answers matched:false and exits 0', async () => {
    const result = await s.run(['tapir:find', '--text', 'Nowhere'])
    expect(result.exitCode).toBe(0)
    // The Dart CLI's answer: the nearest widgets are told over MCP only (test/e2e/mcp-find.test.ts).
    expect(JSON.parse(result.stdout)).toEqual({ref: null, matched: false})
  })

  it.each([[[]], [['--within=e1']]])('find without a predicate (%j) is a usage error, exit 1', async (flags) => {
    const result = await s.run(['tapir:find', ...flags])
    expect(result).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: '✗ Provide at least one of --text / --contains / --semanticsLabel / --key.',
    })
  })

  it('observe lists candidates with qN refs, filtered by role', async () => {
    const result = await s.run(['tapir:observe', '--roles=textbox'])
    expect(result.exitCode).toBe(0)
    const {candidates} = JSON.parse(result.stdout)
    expect(candidates.map((candidate: {label: string; role: string}) => [candidate.role, candidate.label])).toEqual([
      ['textbox', 'Email'],
      ['textbox', 'Password'],
    ])
    expect(candidates[0]).toMatchObject({ref: expect.stringMatching(/^q\d+$/), isVisible: true, inViewport: true, occluded: false})
  })

  const observeParams = () => s.sim.requests.filter((request) => request.method === 'ext.tapir.observe').at(-1)!.params

  it('observe passes its options to the app untouched, as strings, and the app answers for them', async () => {
    const result = await s.run(['tapir:observe', '--limit=abc', '--includeEnrichers=some', '--roles=textbox', '--intent=the login form'])
    expect(result).toMatchObject({exitCode: 0, stderr: ''})
    expect(observeParams()).toMatchObject({limit: 'abc', includeEnrichers: 'some', roles: 'textbox', intent: 'the login form'})
    expect(JSON.parse(result.stdout).count).toBe(2)
    expect(JSON.parse((await s.run(['tapir:observe', '--limit=1'])).stdout).count).toBe(1)
    expect(observeParams().limit).toBe('1')
  })

  it('observe drops empty options, so the app sees them absent', async () => {
    const result = await s.run(['tapir:observe', '--limit=', '--roles=', '--includeEnrichers='])
    expect(result).toMatchObject({exitCode: 0, stderr: ''})
    const params = observeParams()
    for (const name of ['limit', 'roles', 'includeEnrichers', 'intent']) expect(params, name).not.toHaveProperty(name)
  })

  it('with no package, observe reads the tree zero-install and checks the limit the app would have checked', async () => {
    s.sim.setFaults({extensionsMissing: true})
    try {
      const result = await s.run(['tapir:observe', '--roles=textbox'])
      expect(result).toMatchObject({exitCode: 0, stderr: ''})
      expect(JSON.parse(result.stdout)).toMatchObject({candidates: [{ref: 'e2', role: 'textbox', label: 'Email'}, {ref: 'e4'}]})
      const one = await s.run(['tapir:observe', '--limit=1', '--roles=textbox'])
      expect(JSON.parse(one.stdout)).toEqual({candidates: [expect.objectContaining({ref: 'e2'})]})
      expect(await s.run(['tapir:observe', '--limit=abc'])).toMatchObject({
        exitCode: 1,
        stdout: '',
        stderr: '✗ --limit must be a whole number of 1 or more (got "abc").',
      })
    } finally {
      s.sim.setFaults({extensionsMissing: false})
    }
  })

  it('an app tapir cannot wake (detached) still answers, with the frames banner on stderr and stdout unchanged', async () => {
    s.sim.app.setLifecycle('detached')
    try {
      const result = await s.run(['tapir:snap', '--interactiveOnly'])
      expect(result.exitCode).toBe(0)
      expect(result.stdout).toMatch(/^- heading "Sign in" \[ref=e1\]/)
      expect(result.stderr).toMatch(/^⚠ The app is not producing frames \(lifecycle: detached\)/)
    } finally {
      s.sim.app.setLifecycle('resumed')
    }
  })

  it('render errors on the screen print a banner on stderr', async () => {
    expect((await s.run(['tapir:navigate', '--route=/settings'])).exitCode).toBe(0)
    const result = await s.run(['tapir:snap', '--interactiveOnly'])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain('- heading "Settings"')
    expect(result.stderr.split('\n')).toEqual([
      '⚠ 1 render error(s) captured on this screen (run tapir:exceptions for full detail):',
      '  - overflow: A RenderFlex overflowed by 116 pixels on the right.',
    ])
  })
})
