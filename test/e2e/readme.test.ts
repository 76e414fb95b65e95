import {chmodSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {dirname, join} from 'node:path'
import {execa} from 'execa'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startSim} from '../../src/sim/index.js'
import {chromeBinary} from '../helpers/chrome.js'
import {BIN, markEnv, ROOT, sessionFile, tempDir} from '../helpers/cli.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {
  matchesTranscript,
  normalise,
  readmeBlocks,
  RUN_DOCS,
  startsItsOwnApp,
  transcript,
  type ReadmeBlock,
} from '../helpers/readme-blocks.js'

expectNoProcessLeft()

// The README and its guides as a newcomer types them: a shell with `tapir` on its PATH, a fresh
// home and an empty project folder, every block in the order the documents give them.
const blocks = RUN_DOCS.flatMap((doc) => readmeBlocks(readFileSync(join(ROOT, doc), 'utf8'), doc))
const SEPARATOR = '\u001e'
const BLOCK_MS = 180_000

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

describe('the README and its guides, run as written', () => {
  const work = tempDir('tapir-readme-')
  const home = tempDir('tapir-readme-home-')
  const shims = tempDir('tapir-readme-bin-')
  const env: Record<string, string> = {}
  let cdpPort = 0

  const shell = async (script: string, extra: Record<string, string> = {}) => {
    const result = await execa('sh', ['-c', script.replaceAll('9222', String(cdpPort))], {
      cwd: work.path,
      env: {...env, ...extra},
      extendEnv: false,
      reject: false,
      all: true,
      timeout: BLOCK_MS,
    })
    return {exitCode: result.exitCode ?? -1, output: result.all ?? ''}
  }
  const quietly = (command: string) => shell(`${command} >/dev/null 2>&1`)

  beforeAll(async () => {
    writeFileSync(join(shims.path, 'tapir'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`)
    chmodSync(join(shims.path, 'tapir'), 0o755)
    cdpPort = await freePort()
    Object.assign(env, {
      PATH: `${shims.path}:${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: home.path,
      NO_COLOR: '1',
      TAPIR_CHROME_BIN: await chromeBinary(),
      ...markEnv(),
    })
  })
  afterAll(async () => {
    await quietly('tapir stop')
    work.remove()
    home.remove()
    shims.remove()
  })

  it('runs every block but those that need Flutter or a device, which are marked', () => {
    const skipped = blocks.filter((block) => block.kind === 'skipped')
    // needs-device: the CI workflow of docs/tests-in-ci.md, whose jobs each have their own machine;
    // needs-network: docs/benchmark.md's bench on a Node fetched from the npm registry
    expect(skipped.map((block) => block.note).sort()).toEqual(
      [...skipped.map(() => 'needs-flutter').slice(2), 'needs-device', 'needs-network'].sort(),
    )
    expect(blocks.filter((block) => block.kind === 'console').length).toBeGreaterThanOrEqual(4)
    expect(blocks.filter((block) => block.kind === 'sh').length).toBeGreaterThanOrEqual(30)
  })

  for (const block of blocks.filter((candidate) => candidate.kind === 'console' || candidate.kind === 'sh' || candidate.kind === 'file')) {
    const title =
      block.kind === 'file' ? `${block.file}:${block.line} writes ${block.note}` : `${block.file}:${block.line} ${block.body[0]}`
    it(
      title,
      async () => {
        if (block.kind === 'file') {
          const path = join(work.path, block.note!)
          mkdirSync(dirname(path), {recursive: true})
          writeFileSync(path, `${block.body.join('\n')}\n`)
          return
        }
        // A block that starts no app of its own runs on a fresh sim, here in the test's process
        // (as `tapir start --device=sim` runs it: with the stand-in for `flutter run`), named by
        // TAPIR_STATE_FILE; a block that starts one stops it, or the test does if the block failed.
        const own = block.noApp || startsItsOwnApp(block)
        const sim = own ? undefined : await startSim({flutterTool: true})
        const session = sim ? tempDir('tapir-readme-session-') : undefined
        const extra: Record<string, string> = sim && session ? {TAPIR_STATE_FILE: sessionFile(session.path, sim.httpUri)} : {}
        try {
          if (block.kind === 'console') await runTranscript(block, extra)
          else {
            const run = await shell(`set -e\n${block.body.join('\n')}`, extra)
            expect(run.exitCode, `${block.file}:${block.line}\n${run.output}`).toBe(0)
          }
        } finally {
          if (own) await quietly('tapir stop')
          await sim?.close()
          session?.remove()
        }
      },
      BLOCK_MS + 10_000,
    )
  }

  async function runTranscript(block: ReadmeBlock, extra: Record<string, string>): Promise<void> {
    const steps = transcript(block)
    const script = steps.map((step, i) => `printf '${SEPARATOR}${i}\\n'\n${step.command}`).join('\n')
    const run = await shell(`exec 2>&1\n${script}`, extra)
    const outputs = run.output.split(new RegExp(`^${SEPARATOR}\\d+$`, 'm')).slice(1)
    expect(outputs, run.output).toHaveLength(steps.length)
    const same = (text: string) => normalise(text, work.path, home.path)
    steps.forEach((step, i) => {
      const actual = same(outputs[i]!.replace(/^\n/, '').replace(/\n$/, ''))
        .split('\n')
        .filter((line, at, all) => !(line === '' && at === all.length - 1))
      const expected = same(step.expected.join('\n')).split('\n')
      const shown = `${block.file}:${block.line}: $ ${step.command}\n--- ${block.file}\n${expected.join('\n')}\n--- printed\n${actual.join('\n')}`
      expect(matchesTranscript(actual, step.expected.length === 0 ? [] : expected), shown).toBe(true)
    })
  }
})
