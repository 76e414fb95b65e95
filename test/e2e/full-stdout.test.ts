import {execa} from 'execa'
import {afterAll, describe, expect, it} from 'vitest'
import {BIN, cliEnv, sessionFile, tempDir} from '../helpers/cli.js'
import {withSimSession} from '../helpers/sim.js'

const scratch = tempDir('tapir-full-')
afterAll(() => scratch.remove())

/** The built CLI with its stdout on /dev/full, where every write fails with ENOSPC. */
const intoFullDisk = (args: string[]) =>
  execa(`"${process.execPath}" "${BIN}" ${args.map((arg) => `'${arg}'`).join(' ')} > /dev/full`, {
    shell: true,
    cwd: scratch.path,
    env: cliEnv({}, scratch.path),
    reject: false,
  })

describe('a stdout that cannot be written is one line and exit 1, on every path', () => {
  const s = withSimSession()
  const cases: Array<[string, () => string[]]> = [
    ['--version', () => ['--version']],
    ['--help', () => ['--help']],
    ['mcp:install --help', () => ['mcp:install', '--help']],
    ["tapir:run 'snap' 'snap'", () => ['tapir:run', 'snap', 'snap', '--state', sessionFile(scratch.path, s.sim.wsUri)]],
  ]
  for (const [name, args] of cases)
    it(
      name,
      async () => {
        const full = await intoFullDisk(args())
        expect({exitCode: full.exitCode, stderr: full.stderr}).toEqual({
          exitCode: 1,
          stderr: '✗ Cannot write the output: ENOSPC: no space left on device, write',
        })
      },
      60_000,
    )
})
