import {resolve} from 'node:path'
import {runStepLines, runTrace, sessionRunTrace, type RunTrace} from '../cli/step-lines.js'
import {defineCommand} from '../lib/commands/types.js'
import {UsageError} from '../lib/errors.js'
import type {Outcome} from '../lib/output/outcome.js'
import {stepLines, type StepLine} from '../lib/run/plan.js'
import {readStepSource} from '../lib/run/read-steps.js'
import {SessionContext} from '../lib/runtime/session-context.js'
import {checkTraceFile} from '../lib/trace/trace-file.js'

export const RUN = defineCommand({
  id: 'tapir:run',
  summary: 'Run many verb lines in one process over one connection to the app.',
  description:
    'Each step is a verb line without the tapir: prefix ("tap --ref=e5", "fill --ref=q1 --text=\'a b\'"), split into words like a shell splits them (quotes, backslash escapes) and run by the same command as on its own, with the same flags, output and exit code. Operators, globs, $VARS and command substitution are refused before anything runs: steps never reach a shell. `find … --as=<name>` binds the handle it returns (`observe … --as=<name> --label=<label>` binds a candidate) and `--ref=@<name>` uses it; `fill … --holds=<text>` (or type) fails unless the field then holds exactly that text; `${env.NAME}` is read from the environment (an unset one, like an unbound @name, is refused before any step runs).',
  examples: [
    '<%= config.bin %> <%= command.id %> "find --text=Email" "fill --ref=q1 --text=a@b.c" "tap --ref=q2" "snap --interactiveOnly"',
    '<%= config.bin %> <%= command.id %> --file=steps.txt --continue',
    'printf "snap\\ntap --ref=e3\\n" | <%= config.bin %> <%= command.id %> --file=-',
  ],
  params: [
    {
      name: 'continue',
      type: 'boolean',
      default: false,
      description: 'Run every step even after one fails; the first failure still sets the exit code.',
    },
    {
      name: 'strict',
      type: 'boolean',
      default: false,
      description:
        'Also fail a step whose answer reports a soft failure (matched, untilMatched, navigated or verified false), as tapir test does.',
    },
    {
      name: 'file',
      type: 'string',
      description: 'Read the steps from this file (- for stdin), one per line; blank lines and # comments are skipped.',
    },
    {
      name: 'trace',
      type: 'string',
      description: 'Write a trace of the run to this file as it goes: each step, and the app after it (tapir show-trace <file>).',
    },
    {name: 'trace-screenshots', type: 'boolean', default: false, description: 'Put a screenshot after each step in the trace.'},
  ],
  rest: {name: 'steps', description: 'Verb lines, run in order.'},
  globals: 'all',
  session: 'none',
  async run(flags, {verbs: context, version}): Promise<Outcome> {
    const lines = await linesOf(flags.steps, flags.file)
    let trace: RunTrace | undefined
    if (flags.trace !== undefined) {
      const file = resolve(process.cwd(), flags.trace)
      checkTraceFile(file)
      trace = runTrace(file, version, flags['trace-screenshots'])
    } else if (context instanceof SessionContext) trace = sessionRunTrace(context)
    return runStepLines(lines, {
      keepGoing: flags.continue,
      json: flags.json === true,
      context,
      strict: flags.strict,
      ...(trace ? {trace} : {}),
    })
  },
})

async function linesOf(args: string[], file: string | undefined): Promise<Array<string | StepLine>> {
  if (file === undefined) return args
  if (args.length > 0) throw new UsageError('Give the steps as arguments or with --file, not both.')
  const lines = stepLines(await readStepSource(file, process.stdin))
  if (lines.length === 0)
    throw new UsageError(`No steps in ${file === '-' ? 'stdin' : file}: it is empty or holds only blank lines and # comments.`)
  return lines
}
