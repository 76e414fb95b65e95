import {resolve} from 'node:path'
import {defineCommand} from '../lib/commands/types.js'
import {UsageError} from '../lib/errors.js'
import {EXIT} from '../lib/output/exit-codes.js'
import type {Outcome} from '../lib/output/outcome.js'
import {openPage} from '../lib/trace/open-page.js'
import {readTrace} from '../lib/trace/read-trace.js'
import {writeTracePage} from '../lib/trace/viewer.js'

export const SHOW_TRACE = defineCommand({
  id: 'show-trace',
  summary: 'Turn a trace into one HTML page, and open it when a browser is there.',
  description:
    "The page needs no server and no network: a timeline of the steps with a filmstrip of screenshots; for the step picked, its command, output, snapshot, the changes since the step before, screenshot, console and exceptions; failed steps marked; a search across snapshots, console and output. It is written to --output (the trace's path with .html added), and its path printed. A trace cut short (the process was killed) shows the steps it holds.",
  examples: [
    '<%= config.bin %> <%= command.id %> tapir-report/traces/flows_login-attempt1.trace',
    '<%= config.bin %> <%= command.id %> session.trace --output=session.html --no-open',
  ],
  params: [
    {
      name: 'file',
      type: 'string',
      required: true,
      description: 'The trace file (tapir test, tapir:run --trace, tapir trace, mcp:serve --trace).',
    },
    {name: 'output', type: 'string', description: "Where the page goes (default: the trace's path with .html added)."},
    {name: 'open', type: 'boolean', description: 'Open the page in the desktop browser (by default when there is a desktop).'},
  ],
  positional: ['file'],
  globals: 'all',
  session: 'none',
  async run(flags): Promise<Outcome> {
    const {file} = flags
    if (file === '') throw new UsageError('Missing the trace: tapir show-trace <file>.')
    const trace = readTrace(resolve(process.cwd(), file))
    const output = resolve(process.cwd(), flags.output ?? `${file}.html`)
    writeTracePage(output, trace)
    const failed = trace.steps.filter((step) => !step.ok).length
    const opened = flags.open !== false && openPage(output, process.env)
    const lines = [
      `✓ Wrote ${output} (${trace.steps.length} steps, ${failed} failed${trace.end ? '' : ', cut short'})`,
      ...(opened ? ['  Opened in the browser'] : []),
    ]
    return {
      stdout: flags.json
        ? JSON.stringify({page: output, steps: trace.steps.length, failed, closed: trace.end !== undefined, opened})
        : lines.join('\n'),
      stderr: [],
      exitCode: EXIT.ok,
    }
  },
})
