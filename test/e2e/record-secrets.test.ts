import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {tempDir} from '../helpers/cli.js'
import {mcpClient} from '../helpers/mcp.js'
import {simSession} from '../helpers/sim.js'

const PASSWORD = 'hunter22'

let scratch: {path: string; remove(): void} | undefined
const scratchDir = () => (scratch ??= tempDir('tapir-record-')).path
afterAll(() => scratch?.remove())

describe('a value a tapir:run step read from ${env.NAME}', () => {
  it('is written as ${env.NAME} in the step and its comment, even typed into the wrong field (CLI tapir:run)', async () => {
    const file = join(scratchDir(), 'env.tapir')
    const s = await simSession()
    try {
      expect((await s.spawn(['record', 'start', file])).exitCode).toBe(0)
      const run = await s.spawn(
        [
          'tapir:run',
          'snap --interactiveOnly',
          'fill --ref=e2 --text=${env.TAPIR_PW}',
          'tap --ref=e5 --until=${env.TAPIR_PW} --untilTimeoutMs=100',
        ],
        {env: {TAPIR_PW: PASSWORD}},
      )
      // The Email field shows what was typed, and the output masks it.
      expect(run.exitCode, run.stderr).toBe(0)
      expect(run.stdout).not.toContain(PASSWORD)
      const stopped = await s.spawn(['record', 'stop'])
      expect(stopped.stdout).toContain('Replay needs: TAPIR_PW')
    } finally {
      await s.close()
    }
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain(PASSWORD)
    expect(text).toContain('fill --ref=@email --text=${env.TAPIR_PW}\n')
    expect(text).toContain('# from CLI tapir:fill --ref=@email --text=${env.TAPIR_PW}\n')
    expect(text).toContain('# until ${env.TAPIR_PW} did not match when recorded: no wait step\n')
    expect(text).toMatch(/^# replay needs: TAPIR_PW /m)
  }, 120_000)

  it('is written as ${env.NAME} when tapir_run over MCP read it', async () => {
    const file = join(scratchDir(), 'mcp-env.tapir')
    const s = await simSession()
    // The server reads the environment it was started with (the helper passes this process's on).
    process.env.TAPIR_PW = PASSWORD
    const client = await mcpClient(s.state, ['--record', file]).finally(() => delete process.env.TAPIR_PW)
    try {
      const result = (await client.callTool({name: 'tapir_run', arguments: {steps: ['snap', 'fill --ref=e3 --text=${env.TAPIR_PW}']}})) as {
        isError?: boolean
        content: Array<{text: string}>
      }
      expect(result.isError, result.content[0]!.text).not.toBe(true)
    } finally {
      await client.close()
      await s.close()
    }
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain(PASSWORD)
    expect(text).toContain('fill --ref=@password --text=${env.TAPIR_PW}\n')
  })
})

describe('tapir:run masks what came from the environment as whole values only', () => {
  it('shows a step line as written and masks a one-character value only where it stands alone', async () => {
    const s = await simSession()
    try {
      const run = await s.spawn(['tapir:run', 'snap', 'fill --ref=e2 --text=${env.TAPIR_ONE}', 'snap --interactiveOnly'], {
        env: {TAPIR_ONE: 'e'},
      })
      expect(run.exitCode, run.stderr).toBe(0)
      expect(run.stdout).toContain('[2/3] fill --ref=e2 --text=${env.TAPIR_ONE} ok: ✓ Filled e2\n')
      expect(run.stdout).toContain('- textbox "Email": "***" [ref=e2]')
      expect(run.stdout).toContain('- heading "Sign in" [ref=e1]')
    } finally {
      await s.close()
    }
  })
})
