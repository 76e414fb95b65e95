import {resolve} from 'node:path'
import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {UsageError} from '../lib/errors.js'
import {EXIT} from '../lib/output/exit-codes.js'
import type {Outcome} from '../lib/output/outcome.js'
import {openPage} from '../lib/trace/open-page.js'
import {readTrace} from '../lib/trace/read-trace.js'
import {writeTracePage} from '../lib/trace/viewer.js'
import type {FlagsOf} from '../oclif/tapir-command.js'
import {TapirCommand} from '../oclif/tapir-command.js'

export default class ShowTrace extends TapirCommand<typeof ShowTrace> {
  static override summary = 'Turn a trace into one HTML page, and open it when a browser is there.'
  static override description =
    "The page needs no server and no network: a timeline of the steps with a filmstrip of screenshots; for the step picked, its command, output, snapshot, the changes since the step before, screenshot, console and exceptions; failed steps marked; a search across snapshots, console and output. It is written to --output (the trace's path with .html added), and its path printed. A trace cut short (the process was killed) shows the steps it holds."
  static override examples = [
    '<%= config.bin %> <%= command.id %> tapir-report/traces/flows_login-attempt1.trace',
    '<%= config.bin %> <%= command.id %> session.trace --output=session.html --no-open',
  ]
  static override args = {
    file: Args.string({description: 'The trace file (tapir test, tapir:run --trace, tapir trace, mcp:serve --trace).', required: true}),
  }
  static override flags = {
    output: Flags.string({description: "Where the page goes (default: the trace's path with .html added)."}),
    open: Flags.boolean({description: 'Open the page in the desktop browser (by default when there is a desktop).', allowNo: true}),
  }

  protected parseInput() {
    return this.parse(ShowTrace)
  }

  protected async outcome(
    flags: FlagsOf<typeof ShowTrace>,
    _context: unknown,
    _argv: string[],
    args: Record<string, unknown>,
  ): Promise<Outcome> {
    const file = typeof args.file === 'string' ? args.file : ''
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
  }
}
