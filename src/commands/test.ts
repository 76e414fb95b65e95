import {dirname, relative, resolve} from 'node:path'
import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {stepOutcome} from '../cli/step-lines.js'
import {TapirError, UsageError} from '../lib/errors.js'
import {EXIT} from '../lib/output/exit-codes.js'
import type {Outcome} from '../lib/output/outcome.js'
import {typedSecrets} from '../lib/record/typed-secrets.js'
import type {Step} from '../lib/run/plan.js'
import {stepArguments} from '../lib/run/step-arguments.js'
import {findTests} from '../lib/suite/discover.js'
import {readDurations} from '../lib/suite/durations.js'
import {extensionsBack, FRESH, hotRestart, type Fresh} from '../lib/suite/fresh.js'
import {summaryLine, testLine} from '../lib/suite/list.js'
import {totalsOf} from '../lib/suite/report.js'
import {runSuite, TRACE_MODES, type AttemptControl, type TraceMode} from '../lib/suite/run-suite.js'
import {parseShard, pickShard} from '../lib/suite/shard.js'
import {checkReports, parseReporters, writeReports} from '../lib/suite/write-reports.js'
import {verbNamed} from '../lib/verbs/index.js'
import type {VerbContext} from '../lib/verbs/types.js'
import {produceCommand} from '../oclif/produce-command.js'
import type {FlagsOf} from '../oclif/tapir-command.js'
import {TapirCommand} from '../oclif/tapir-command.js'

export default class Test extends TapirCommand<typeof Test> {
  static override summary = 'Run flow files (*.tapir) as a test suite, each from a fresh app, with reports for CI.'
  static override description =
    'Every *.tapir file under the paths (folders recursively) is one test: its lines are tapir:run steps, run in strict mode (a step whose answer says matched, untilMatched, navigated or verified false fails) with expect steps as checks. Before each attempt the app is hot restarted and tapir waits for its extensions (--fresh=restart), started anew (start) or left as it is (none). Exits 0 when every test passed, 1 otherwise. Reports go to --output-dir: junit.xml, report.html (with a screenshot, the snapshot, console and exceptions of each failure, and its trace) and report.json.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> flows/',
    '<%= config.bin %> <%= command.id %> flows/ --retries=1 --reporter=list,junit --output-dir=reports',
    '<%= config.bin %> <%= command.id %> flows/ --shard=2/4 --durations=last/report.json',
  ]
  static override strict = false
  static override args = {paths: Args.string({description: 'Test files and folders of them (this folder when none).', ignoreStdin: true})}
  static override flags = {
    fresh: Flags.string({
      description: 'How each test starts: restart (a hot restart, then the extensions awaited), start (a new app) or none.',
      options: [...FRESH],
      default: 'restart',
    }),
    retries: Flags.integer({
      description: 'Run a failed test again up to this many times; one that then passes is flaky.',
      default: 0,
      min: 0,
      max: 10,
    }),
    'test-timeout': Flags.integer({
      description: 'Fail a test that runs longer than this many milliseconds.',
      default: 60_000,
      min: 100,
      max: 3_600_000,
    }),
    grep: Flags.string({description: 'Run only the tests whose file path matches this regular expression.'}),
    bail: Flags.boolean({description: 'Stop after the first failed test.'}),
    reporter: Flags.string({
      description: 'Comma-separated reporters: list (lines on stdout), junit, html, json.',
      default: 'list,junit,html,json',
    }),
    'output-dir': Flags.string({description: 'Folder the junit, html and json reports are written to.', default: 'tapir-report'}),
    shard: Flags.string({description: 'Run only shard i of n (1/4): a stable subset, balanced by --durations when given.'}),
    durations: Flags.string({description: 'The report.json of a last run: shards are balanced by its test times.'}),
    trace: Flags.string({
      description:
        'Which attempts leave a trace in <output-dir>/traces (each step, and the app after it; tapir show-trace <file>): on, off, retain-on-failure (kept only when the attempt failed) or on-first-retry.',
      options: [...TRACE_MODES],
      default: 'retain-on-failure',
    }),
    'trace-screenshots': Flags.boolean({description: 'Put a screenshot after each action in the traces.', allowNo: true, default: true}),
  }

  protected parseInput() {
    return this.parse(Test)
  }

  protected async outcome(flags: FlagsOf<typeof Test>, context: VerbContext): Promise<Outcome> {
    const cwd = process.cwd()
    const reporters = parseReporters(flags.reporter)
    const grep = flags.grep === undefined ? undefined : pattern(flags.grep)
    const shard = flags.shard === undefined ? undefined : parseShard(flags.shard)
    if (flags.durations !== undefined && !shard) throw new UsageError('--durations balances shards: give it with --shard=i/n.')
    const durations = flags.durations === undefined ? undefined : readDurations(flags.durations)
    const paths = stepArguments(this.argv, flagSpec())
    const unknown = paths.find((path) => path.startsWith('-'))
    if (unknown) throw new UsageError(`Nonexistent flag: ${unknown.split('=')[0]}. See \`tapir test --help\`.`)
    let files = findTests(paths, cwd)
    if (grep) files = files.filter((file) => grep.test(file))
    if (files.length === 0) throw new UsageError(`No test file matches --grep=${flags.grep}.`)
    if (shard) files = pickShard(files, shard, durations)
    const outputDir = resolve(cwd, flags['output-dir'])
    const stateFile = flags.state ?? process.env.TAPIR_STATE_FILE
    const stateFolder = stateFile === undefined ? [] : [dirname(resolve(cwd, stateFile))]
    checkReports(reporters, outputDir)
    const fresh = flags.fresh as Fresh
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
        trace: {mode: flags.trace as TraceMode, version: this.config.version, screenshots: flags['trace-screenshots']},
      },
      {
        context,
        isVerb: (verb) => verbNamed(verb) !== undefined,
        dispatch: (step: Step, control: AttemptControl) => stepOutcome(step, attemptContext(context, control)),
        fresh: () => this.fresh(fresh, context, flags.state),
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
  }

  private async fresh(fresh: Fresh, context: VerbContext, state: string | undefined): Promise<void> {
    if (fresh === 'none') return
    if (fresh === 'restart') return hotRestart(context)
    const restarted = await produceCommand(this.config, 'restart', state ? [`--state=${state}`] : [])
    if (restarted.exitCode !== EXIT.ok) throw new TapirError(`tapir restart failed: ${restarted.stderr.join(' ')}`, 'local')
    context.reset?.()
    await extensionsBack(context)
  }
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

/** Every flag of the command and whether it takes a value, to read the paths from the raw argv. */
function flagSpec() {
  const all = {...Test.baseFlags, ...Test.flags}
  return Object.fromEntries(
    Object.entries(all).flatMap(([name, flag]) => [
      [name, {takesValue: flag.type === 'option'}],
      ...(flag.type === 'boolean' && flag.allowNo ? [[`no-${name}`, {takesValue: false}]] : []),
    ]),
  )
}
