import {chmodSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {execa} from 'execa'
import {afterAll, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {BIN, ROOT, tempDir} from '../helpers/cli.js'
import {simSession, type SimSession} from '../helpers/sim.js'

/** Runs a shell pipeline with `tapir` on PATH (this checkout's bin) and the sim's session. */
async function pipeline(script: string, s: SimSession, home: string) {
  const result = await execa('sh', ['-c', script], {
    cwd: ROOT,
    env: {PATH: `${home}:${process.env.PATH}`, HOME: home, TAPIR_STATE_FILE: s.state, NO_COLOR: '1', NODE_ENV: 'production'},
    reject: false,
    timeout: 60_000,
  })
  return {stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode}
}

const progress = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => /^\[\d+\/\d+\] /.test(line))
    .map((line) => line.split(' ok:')[0])

const REPEATED = ['get_routes', 'snap', 'get_routes', 'snap']
const inOrder = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => /^\[\d\/4\]/.test(line))
    .map((line) => line.split(' ok:')[0])
const ORDER = ['[1/4] get_routes', '[2/4] snap', '[3/4] get_routes', '[4/4] snap']

describe('tapir:run reading its steps from stdin and files', () => {
  let s: SimSession
  let home: {path: string; remove(): void}
  beforeAll(async () => {
    s = await simSession()
    home = tempDir('tapir-home-')
    const shim = join(home.path, 'tapir')
    writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`)
    chmodSync(shim, 0o755)
  })
  beforeEach(() => {
    s.sim.app.restart()
  })
  afterAll(async () => {
    expect(s.sim.violations).toEqual([])
    await s.close()
    home.remove()
  })

  it('waits for a slow producer: the first line after a delay, more later', async () => {
    const result = await pipeline(
      '(sleep 1; echo get_routes; sleep 1; echo snap --interactiveOnly; sleep 0.5; echo get_routes) | tapir tapir:run --file=-',
      s,
      home.path,
    )
    expect(result.stderr).toBe('')
    expect(result.exitCode).toBe(0)
    expect(progress(result.stdout)).toEqual(['[1/3] get_routes', '[2/3] snap --interactiveOnly', '[3/3] get_routes'])
  })

  it('reads a 1 MB pipe (larger than a pipe buffer) to its end and runs it', async () => {
    const padding = `# ${'x'.repeat(1021)}`
    const script = `{ echo get_routes; i=0; while [ $i -lt 1024 ]; do echo '${padding}'; i=$((i+1)); done; echo snap --interactiveOnly; } | tapir tapir:run --file=-`
    const result = await pipeline(script, s, home.path)
    expect(result.exitCode, result.stderr).toBe(0)
    expect(progress(result.stdout)).toEqual(['[1/2] get_routes', '[2/2] snap --interactiveOnly'])
  })

  it('refuses stdin over 4 MB, exit 1, and runs nothing', async () => {
    const before = s.sim.requests.length
    const result = await pipeline(`{ echo get_routes; head -c 5000000 /dev/zero | tr '\\0' '#'; } | tapir tapir:run --file=-`, s, home.path)
    expect(result).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: '✗ Cannot read steps from stdin: it holds more than 4 MB; split the steps into several runs.',
    })
    expect(s.sim.requests.length).toBe(before)
  })

  it('an empty pipe is nothing to run: a clear message, exit 1', async () => {
    const result = await pipeline('true | tapir tapir:run --file=-', s, home.path)
    expect(result).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: '✗ No steps in stdin: it is empty or holds only blank lines and # comments.',
    })
  })

  it('refuses a file that is not a regular file, such as /dev/zero, at once', async () => {
    const started = Date.now()
    const result = await s.run(['tapir:run', '--file=/dev/zero'])
    expect(result).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: '✗ Cannot read steps from /dev/zero: it is not a regular file. Give a file of step lines, or - to read them from stdin.',
    })
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('refuses a file over 4 MB, and binary input, without echoing it', async () => {
    const big = join(s.dir, 'big.txt')
    writeFileSync(big, `get_routes\n${'#'.repeat(5_000_000)}\n`)
    expect(await s.run(['tapir:run', '--file', big])).toMatchObject({
      exitCode: 1,
      stderr: `✗ Cannot read steps from ${big}: it holds more than 4 MB; split the steps into several runs.`,
    })
    const binary = join(s.dir, 'steps.bin')
    writeFileSync(
      binary,
      Buffer.concat([Buffer.from('get_routes\n'), Buffer.from([0x00, 0xff, 0x1b, 0x5b, 0x32, 0x4a]), Buffer.alloc(6000, 0x41)]),
    )
    expect(await s.run(['tapir:run', '--file', binary])).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: `✗ Cannot read steps from ${binary}: it is not text (a NUL byte at byte 11); steps are UTF-8 lines.`,
    })
    const invalid = join(s.dir, 'latin1.txt')
    writeFileSync(invalid, Buffer.from([0x73, 0x6e, 0x61, 0x70, 0x20, 0xe9, 0x0a]))
    expect(await s.run(['tapir:run', '--file', invalid])).toMatchObject({
      exitCode: 1,
      stderr: `✗ Cannot read steps from ${invalid}: it is not text (invalid UTF-8); steps are UTF-8 lines.`,
    })
  })

  it("runs the README's piping example exactly as written", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const example = readme.split('\n').find((line) => line.endsWith('| tapir tapir:run --file=-'))
    expect(example).toBeDefined()
    const result = await pipeline(example!, s, home.path)
    expect(result.exitCode, result.stderr).toBe(0)
    expect(progress(result.stdout)).toEqual([
      '[1/3] find --text=Email',
      '[2/3] fill --ref=q1 --text=ada@example.com',
      '[3/3] snap --grep Email',
    ])
    expect(result.stdout.split('\n').at(-2)).toMatch(/^- textbox "Email": "ada@example.com" \[ref=e\d+\]$/)
  })

  it('reads steps from stdin with --file -', async () => {
    const result = await s.run(['tapir:run', '--file', '-'], {input: 'snap --grep Password\n'})
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(/^\[1\/1\] snap --grep Password ok:\n- textbox "Password" \[ref=e\d+\]\n {2}typeable: true$/)
  })

  it('runs repeated steps in order from --file and from stdin', async () => {
    const file = join(s.dir, 'repeated.txt')
    writeFileSync(file, REPEATED.join('\n') + '\n')
    expect(inOrder((await s.run(['tapir:run', '--file', file])).stdout)).toEqual(ORDER)
    expect(inOrder((await s.run(['tapir:run', '--file=-'], {input: REPEATED.join('\n')})).stdout)).toEqual(ORDER)
  })

  it("leaves a script's piped stdin alone: a verb whose arguments came as flags reads none of it", async () => {
    // oclif would read a missing argument from a piped stdin; tapir's reader never reads stdin.
    const script = `printf 'one\\ntwo\\n' | while read line; do tapir tapir:perf_compare --a nope-a.json --b nope-b.json 2>&1 | head -1; echo "read $line"; done`
    const result = await pipeline(script, s, home.path)
    const lines = result.stdout.split('\n')
    expect(lines.filter((line) => line.startsWith('read '))).toEqual(['read one', 'read two'])
    expect(lines[0]).toMatch(/^✗ .*nope-a\.json/)
  })

  it('refuses steps given both ways, and a missing file', async () => {
    expect(await s.run(['tapir:run', '--file', '-', 'snap'], {input: 'snap\n'})).toMatchObject({
      exitCode: 1,
      stderr: '✗ Give the steps as arguments or with --file, not both.',
    })
    const missing = await s.run(['tapir:run', '--file', join(s.dir, 'nope.txt')])
    expect(missing.exitCode).toBe(1)
    expect(missing.stderr).toMatch(/^✗ Cannot read steps from .*nope\.txt: ENOENT/)
  })
})
