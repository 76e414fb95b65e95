import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {tapir, tempDir} from '../helpers/cli.js'

const SECRET = 'campaign-secret-7'

function scenario(name: string, step: string): string {
  return `name: ${name}
platforms: [sim]
repeat: 2
setup:
  - hot_restart
  - fill: {target: {key: email}, text: ada@example.com}
  - fill: {target: {key: password}, text: "\${env.PERF_PASSWORD}"}
  - tap: {target: {key: signIn}}
  - wait_for_text: Monitors
steps:
  - ${step}
`
}

describe('tapir:perf_campaign on the sim platform', () => {
  const dir = tempDir('tapir-campaign-')
  const state = join(dir.path, 'state.json')
  const out = join(dir.path, 'out')
  const campaign = (args: string[]) =>
    tapir(['tapir:perf_campaign', ...args, '--state', state, `--out=${out}`], {cwd: dir.path, env: {PERF_PASSWORD: SECRET}})

  beforeAll(() => {
    mkdirSync(join(dir.path, 'scenarios'))
    writeFileSync(join(dir.path, 'scenarios', 'list.yaml'), scenario('list', 'scroll: {target: {text: API}, dy: 400}'))
    writeFileSync(join(dir.path, 'scenarios', 'open.yaml'), scenario('open', 'tap: {target: {role: button, name: Web}}'))
    writeFileSync(join(dir.path, 'scenarios', 'web.yaml'), 'name: web\nplatforms: [chrome]\nsteps:\n  - wait: 10\n')
    writeFileSync(join(dir.path, 'lost.yaml'), scenario('lost', 'tap: {target: {text: Nowhere to be seen}}'))
    writeFileSync(
      join(dir.path, 'two.yaml'),
      'scenarios: ["scenarios/*.yaml"]\nretries: 0\nhooks:\n  before_campaign: echo "start $TAPIR_PERF_PLATFORM $TAPIR_PERF_LABEL" >> hooks.log\n  before_scenario: echo "scenario $TAPIR_PERF_SCENARIO $TAPIR_PERF_OUT" >> hooks.log\n',
    )
    writeFileSync(join(dir.path, 'failing.yaml'), 'scenarios: ["scenarios/list.yaml", "lost.yaml"]\nretries: 0\n')
    writeFileSync(
      join(dir.path, 'braces.yaml'),
      'scenarios: ["scenarios/*.yaml"]\nhooks:\n  before_scenario: echo ${TAPIR_PERF_SCENARIO}\n',
    )
  })
  afterAll(async () => {
    await tapir(['stop', '--state', state], {cwd: dir.path})
    dir.remove()
  })

  it('passes a two-scenario campaign: hooks through the shell with the TAPIR_PERF_* variables, a run file each, the app stopped after', async () => {
    const result = await campaign(['two.yaml', '--platform=sim', '--label=nightly'])
    expect(result.exitCode).toBe(0)
    expect(result.stdout.split('\n')).toEqual(['  list  ok', '  open  ok'])
    expect(readFileSync(join(dir.path, 'hooks.log'), 'utf8').split('\n')).toEqual([
      'start sim nightly',
      `scenario list ${out}`,
      `scenario open ${out}`,
      '',
    ])
    for (const name of ['list', 'open']) expect(JSON.parse(readFileSync(join(out, `${name}-nightly.json`), 'utf8')).summary.repeats).toBe(2)
    expect(existsSync(state)).toBe(false)
    for (const text of [result.stdout, result.stderr, readFileSync(join(out, 'list-nightly.json'), 'utf8')])
      expect(text).not.toContain(SECRET)
  })

  it('exits 1 when a scenario fails, naming its error file; --json lists every result', async () => {
    const result = await campaign(['failing.yaml', '--platform=sim', '--json'])
    expect(result.exitCode).toBe(1)
    const errFile = join(out, 'lost-run.err')
    expect(JSON.parse(result.stdout)).toEqual({
      results: [
        {scenario: 'list', status: 'ok', attempts: 1, runFile: join(out, 'list-run.json'), errFile: null},
        {scenario: 'lost', status: 'failed', attempts: 1, runFile: null, errFile},
      ],
    })
    const err = readFileSync(errFile, 'utf8')
    expect(err).toMatch(
      /^attempt 1\/1: lost: steps\[0\] \(tap\) failed: target \{text: "Nowhere to be seen"\} matched nothing within 3 s\nDiagnostics: /,
    )
    expect(err).not.toContain(SECRET)
    const text = await campaign(['failing.yaml', '--platform=sim', '--only=lost'])
    expect(text).toMatchObject({exitCode: 1, stdout: `  lost  FAILED (see ${errFile})`})
  })

  it("refuses up front while a session is recorded, and leaves that session's app running", async () => {
    const started = await tapir(['start', '--device=sim', '--state', state], {cwd: dir.path})
    expect(started.exitCode, started.stderr).toBe(0)
    const result = await campaign(['two.yaml', '--platform=sim', '--label=kept'])
    expect(result).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: `✗ A session is recorded at ${state}, and perf_campaign would stop its app: the campaign starts and stops an app of its own for every scenario. Run \`tapir stop\` first, or give the campaign a session file of its own with --state=<file>.`,
    })
    expect(existsSync(join(out, 'list-kept.json'))).toBe(false)
    const status = await tapir(['status', '--state', state], {cwd: dir.path})
    expect(JSON.parse(status.stdout)).toMatchObject({answering: true, tapir: true})
    expect((await tapir(['stop', '--state', state], {cwd: dir.path})).exitCode).toBe(0)
  })

  it('refuses ${ in hooks, a platform tapir cannot start, and an --only that matches nothing', async () => {
    expect(await campaign(['braces.yaml', '--platform=sim'])).toMatchObject({
      exitCode: 1,
      stderr:
        '✗ Invalid perf campaign:\n- hooks.before_scenario: ${ is refused in hooks (they are not interpolated); read the TAPIR_PERF_* variables as $NAME',
    })
    const chrome = await campaign(['two.yaml', '--platform=chrome'])
    expect(chrome.exitCode).toBe(1)
    expect(chrome.stderr).toMatch(/^✗ tapir can start only the simulated app today \(--platform=sim\), not chrome\./)
    expect(await campaign(['two.yaml', '--platform=sim', '--only=nothing'])).toMatchObject({
      exitCode: 1,
      stderr: '✗ No scenario matched --only=nothing on sim.',
    })
  })
})
