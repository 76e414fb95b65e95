import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {tapir, tempDir} from '../helpers/cli.js'
import {copyProject} from '../helpers/golden.js'
import {runCommand} from '../helpers/run-command.js'
import {withSimSession} from '../helpers/sim.js'

/** The in-process runner stands in for the spawned CLI in test/commands/: the same words must
 *  give the same stdout, stderr and exit code both ways. */
describe('runCommand answers as the spawned CLI does', () => {
  const s = withSimSession({}, 'in-process')
  const bothWays = async (args: string[]) => {
    const inProcess = await s.run(args)
    expect(process.exitCode).toBeUndefined()
    expect(inProcess).toEqual(await s.spawn(args))
    return inProcess
  }

  it.each([
    [['tapir:snap']],
    [['tapir:get_routes', '--json']],
    [['tapir:snap', '--depth=-1']],
    [['tapir:snap', '--timeout=abc']],
    [['tapir:snap', '--bogus']],
    [['tapir:find', '--text', 'Nowhere']],
    [['tapir:tap', '--ref=e999']],
    [['tapir:tap', '--ref=e999', '--json']],
    [['tapir:wait', '--text=Nowhere', '--timeoutMs=100']],
    [['tapir:run', 'snap --interactiveOnly', 'tap --ref=e999', 'snap']],
    [['tapir:run', '--json', '--continue', 'snap --grep Email', 'find --within=e1']],
  ])('%j', async (args) => {
    await bothWays(args)
  })

  it('the same banners on stderr, and the same escaped text from the app', async () => {
    expect((await s.run(['tapir:fill', '--ref=e2', '--text=\u001b[2Jgone\u009b31m'])).exitCode).toBe(0)
    s.sim.app.setLifecycle('detached')
    try {
      const result = await bothWays(['tapir:snap', '--grep', 'Email'])
      expect(result.stdout).toContain('\\u001b[2Jgone\\u009b31m')
      expect(result.stderr).toMatch(/^⚠ The app is not producing frames/)
      const refused = await bothWays(['tapir:navigate', '--route=/admin\u001b[2J'])
      expect(refused.stderr).toContain('\\u001b[2J')
    } finally {
      s.sim.app.setLifecycle('resumed')
    }
  })

  it('the environment the command sees, for that command only', async () => {
    const home = process.env.HOME
    const env = {TAPIR_STATE_FILE: s.state}
    const inProcess = await runCommand(['status'], {env})
    expect(inProcess).toEqual(await tapir(['status'], {env}))
    expect(JSON.parse(inProcess.stdout)).toMatchObject({sessionFile: s.state, answering: true})
    expect(process.env.TAPIR_STATE_FILE).toBeUndefined()
    expect(process.env.HOME).toBe(home)
  })

  it.each([
    [['--help'], /spawn tapir\(\) for help/],
    [['tapir:snap', '--help'], /oclif prints help/],
    [['tapir:nope'], /no command tapir:nope/],
  ])('refuses %j, which only the process boundary answers', async (args, message) => {
    await expect(runCommand(args)).rejects.toThrow(message)
  })

  it('refuses stdin, which comes through the process boundary', async () => {
    await expect(s.run(['tapir:run', '--file=-'], {input: 'snap\n'})).rejects.toThrow(/use spawn/)
  })
})

describe('install and uninstall in this process as spawned', () => {
  it('the same stdout, stderr and exit code for a dry run and for a refusal', async () => {
    const project = tempDir('tapir-install-')
    try {
      copyProject('arrow', project.path)
      for (const args of [
        ['install', '--dry-run', `--project=${project.path}`],
        ['install', '--dry-run', '--json', `--project=${project.path}`],
        ['uninstall', `--project=${join(project.path, 'nowhere')}`],
      ])
        expect(await runCommand(args), args.join(' ')).toEqual(await tapir(args))
    } finally {
      project.remove()
    }
  })
})
