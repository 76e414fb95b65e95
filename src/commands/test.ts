import {dirname, relative, resolve} from 'node:path'
import {stepOutcome, stepValueWords} from '../cli/step-lines.js'
import {runCommand} from '../lib/commands/run-command.js'
import {defineCommand, type CommandContext, type GlobalInput} from '../lib/commands/types.js'
import {TapirError, UsageError} from '../lib/errors.js'
import {EXIT} from '../lib/output/exit-codes.js'
import type {Outcome} from '../lib/output/outcome.js'
import {typedSecrets} from '../lib/record/typed-secrets.js'
import type {Step} from '../lib/run/plan.js'
import {findTests} from '../lib/suite/discover.js'
import {readDurations} from '../lib/suite/durations.js'
import {extensionsBack, FRESH, hotRestart, type Fresh} from '../lib/suite/fresh.js'
import {summaryLine, testLine} from '../lib/suite/list.js'
import {totalsOf} from '../lib/suite/report.js'
import {runSuite, TRACE_MODES, type AttemptControl} from '../lib/suite/run-suite.js'
import {parseShard, pickShard} from '../lib/suite/shard.js'
import {checkReports, parseReporters, writeReports} from '../lib/suite/write-reports.js'
import {verbNamed} from '../lib/verbs/index.js'
import type {VerbContext} from '../lib/verbs/types.js'
import {RESTART} from './restart.js'

export const TEST = defineCommand({
  id: 'test',
  summary: 'Run flow files (*.tapir) as a test suite, each from a fresh app, with reports for CI.',
  description:
    'Every *.tapir file under the paths (folders recursively) is one test: its lines are tapir:run steps, run in strict mode (a step whose answer says matched, untilMatched, navigated or verified false fails) with expect steps as checks. Before each attempt the app is hot restarted and tapir waits for its extensions (--fresh=restart), started anew (start) or left as it is (none). Exits 0 when every test passed, 1 otherwise. Reports go to --output-dir: junit.xml, report.html (with a screenshot, the snapshot, console and exceptions of each failure, and its trace) and report.json.',
  examples: [
    '<%= config.bin %> <%= command.id %> flows/',
    '<%= config.bin %> <%= command.id %> flows/ --retries=1 --reporter=list,junit --output-dir=reports',
    '<%= config.bin %> <%= command.id %> flows/ --shard=2/4 --durations=last/report.json',
  ],
  params: [
    {
      name: 'fresh',
      type: 'string',
      description: 'How each test starts: restart (a hot restart, then the extensions awaited), start (a new app) or none.',
      options: FRESH,
      default: 'restart',
    },
    {
      name: 'retries',
      type: 'integer',
      description: 'Run a failed test again up to this many times; one that then passes is flaky.',
      default: 0,
      minimum: 0,
      maximum: 10,
    },
    {
      name: 'test-timeout',
      type: 'integer',
      description: 'Fail a test that runs longer than this many milliseconds.',
      default: 60_000,
      minimum: 100,
      maximum: 3_600_000,
    },
    {name: 'grep', type: 'string', description: 'Run only the tests whose file path matches this regular expression.'},
    {name: 'bail', type: 'boolean', default: false, description: 'Stop after the first failed test.'},
    {
      name: 'reporter',
      type: 'string',
      description: 'Comma-separated reporters: list (lines on stdout), junit, html, json.',
      default: 'list,junit,html,json',
    },
    {name: 'output-dir', type: 'string', description: 'Folder the junit, html and json reports are written to.', default: 'tapir-report'},
    {name: 'shard', type: 'string', description: 'Run only shard i of n (1/4): a stable subset, balanced by --durations when given.'},
    {name: 'durations', type: 'string', description: 'The report.json of a last run: shards are balanced by its test times.'},
    {
      name: 'trace',
      type: 'string',
      description:
        'Which attempts leave a trace in <output-dir>/traces (each step, and the app after it; tapir show-trace <file>): on, off, retain-on-failure (kept only when the attempt failed) or on-first-retry.',
      options: TRACE_MODES,
      default: 'retain-on-failure',
    },
    {name: 'trace-screenshots', type: 'boolean', description: 'Put a screenshot after each action in the traces.', default: true},
  ],
  rest: {name: 'paths', description: 'Test files and folders of them (this folder when none).'},
  globals: 'all',
  session: 'none',
  async run(flags, commandContext): Promise<Outcome> {
    const {verbs: context, version} = commandContext
    const cwd = process.cwd()
    const reporters = parseReporters(flags.reporter)
    const grep = flags.grep === undefined ? undefined : pattern(flags.grep)
    const shard = flags.shard === undefined ? undefined : parseShard(flags.shard)
    if (flags.durations !== undefined && !shard) throw new UsageError('--durations balances shards: give it with --shard=i/n.')
    const durations = flags.durations === undefined ? undefined : readDurations(flags.durations)
    let files = findTests(flags.paths, cwd)
    if (grep) files = files.filter((file) => grep.test(file))
    if (files.length === 0) throw new UsageError(`No test file matches --grep=${flags.grep}.`)
    if (shard) files = pickShard(files, shard, durations)
    const outputDir = resolve(cwd, flags['output-dir'])
    const stateFile = flags.state ?? process.env.TAPIR_STATE_FILE
    const stateFolder = stateFile === undefined ? [] : [dirname(resolve(cwd, stateFile))]
    checkReports(reporters, outputDir)
    const fresh = flags.fresh
    // On a terminal each test's line shows as it ends (stderr); stdout then holds the summary alone.
    const live = reporters.includes('list') && process.stderr.isTTY === true
    const report = await runSuite(
      {
        files,
        cwd,
        outputDir,
        retries: flags.retries,
        testTimeoutMs: flags['test-timeout'],
        bail: flags.bail,
        fresh,
        hide: stateFolder,
        trace: {mode: flags.trace, version, screenshots: flags['trace-screenshots']},
      },
      {
        context,
        isVerb: (verb) => verbNamed(verb) !== undefined,
        valueWords: stepValueWords,
        dispatch: (step: Step, control: AttemptControl) => stepOutcome(step, attemptContext(context, control)),
        fresh: () => freshApp(fresh, commandContext, flags),
        ...(live ? {onTest: (test) => context.progress?.(testLine(test))} : {}),
      },
    )
    if (shard) report.shard = shard
    // The summary is printed even when a report cannot be written: the results are not lost.
    const {written, failures} = writeReports(report, reporters, outputDir, cwd)
    const shown = relative(cwd, outputDir) || '.'
    const lines = [
      ...(reporters.includes('list') && !(live && process.stdout.isTTY) ? report.tests.map(testLine) : []),
      ...(shard && files.length === 0 ? [`shard ${shard.index}/${shard.total} holds no test`] : []),
      summaryLine(report),
      ...written.map((file) => `report: ${shown}/${file}`),
    ]
    const failed = report.tests.some((test) => test.status === 'failed')
    const stdout = flags.json
      ? JSON.stringify({
          ...totalsOf(report),
          durationMs: report.durationMs,
          tests: report.tests.map((test) => ({
            file: test.file,
            status: test.status,
            durationMs: test.durationMs,
            attempts: test.attempts.length,
          })),
          reports: written.map((file) => `${shown}/${file}`),
        })
      : lines.join('\n')
    return {
      stdout,
      stderr: failures.map((failure) => `✗ ${failure}`),
      exitCode: failed || failures.length > 0 ? EXIT.failed : EXIT.ok,
    }
  },
})

/** Readies the app for a test: a hot restart, or (`--fresh=start`) `tapir restart` run on its typed input. */
async function freshApp(fresh: Fresh, {verbs: context, version, env, commands}: CommandContext, flags: GlobalInput): Promise<void> {
  if (fresh === 'none') return
  if (fresh === 'restart') return hotRestart(context)
  const input = {timeout: flags.timeout, ...(flags.state === undefined ? {} : {state: flags.state})}
  const restarted = await runCommand(RESTART, input, {verbs: context, version, env, commands})
  if (restarted.exitCode !== EXIT.ok) throw new TapirError(`tapir restart failed: ${restarted.stderr.join(' ')}`, 'local')
  context.reset?.()
  await extensionsBack(context)
}

/** Each attempt's context, made at its first step: what its typed-secret watch saw lasts the attempt. */
const attemptContexts = new WeakMap<AttemptControl, VerbContext>()

/** The shared context (its one connection) under an attempt's control: cancelled when the test
 *  times out, and telling the attempt each text typed into a secret field. */
function attemptContext(context: VerbContext, control: AttemptControl): VerbContext {
  const made = attemptContexts.get(control)
  if (made) return made
  const recorder = typedSecrets(control.secret, context.recorder?.bind(context))
  const attempt = new Proxy(context, {
    get(target, key, receiver) {
      if (key === 'cancelled') return control.cancelled
      if (key === 'recorder') return recorder
      const value: unknown = Reflect.get(target, key, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  attemptContexts.set(control, attempt)
  return attempt
}

function pattern(text: string): RegExp {
  try {
    return new RegExp(text)
  } catch (error) {
    throw new UsageError(`--grep=${text} is not a regular expression (${error instanceof Error ? error.message : String(error)}).`)
  }
}
