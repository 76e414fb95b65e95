import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Config} from '@oclif/core/config'
import type {Outcome} from '../../src/lib/output/outcome.js'
import {renderOutcome} from '../../src/lib/output/print.js'
import {OutcomeCommand} from '../../src/oclif/outcome-command.js'
import {type CliResult, ROOT, tempDir} from './cli.js'

/** A tapir command class from oclif's registry: it produces its Outcome without printing (the
 *  part `run` prints is what `renderOutcome` renders below). */
interface Producer {
  init(): Promise<void>
  produce(): Promise<Outcome>
}

let config: Promise<Config> | undefined
/** oclif's Config, loaded once per test file from package.json as bin/run.cjs loads it, with one
 *  difference: its commands are the classes of src/ (test/helpers/source-commands.js hands them
 *  over), so an edit in src needs no build. The plugins (help, autocomplete) are left out: help
 *  is refused below, and a plugin's command would not come from src. */
function loadConfig(): Promise<Config> {
  config ??= sourceConfig()
  return config
}

async function sourceConfig(): Promise<Config> {
  // Loaded on first use: a test file that only spawns the CLI does not pay for them.
  const [{Config}, {COMMANDS}] = await Promise.all([import('@oclif/core/config'), import('../../src/commands/index.js')])
  Object.assign(globalThis, {tapirSourceCommands: COMMANDS})
  const pjson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  pjson.oclif = {
    ...pjson.oclif,
    commands: {...pjson.oclif.commands, target: './test/helpers/source-commands.js'},
    plugins: [],
    hooks: {},
  }
  return Config.load({root: ROOT, pjson})
}

/** Runs `tapir <args>` in this process and returns what the spawned CLI (`tapir()` in cli.ts)
 *  returns for the same words: its stdout and stderr as a pipe carries them (uncoloured, the
 *  final newline stripped as execa strips it) and its exit code. What the process boundary
 *  alone decides is refused rather than imitated: stdin, a working folder, help and the
 *  version, an unknown command. Pass --state: the working folder is the test's own. */
export async function runCommand(args: string[], options: {env?: Record<string, string>} = {}): Promise<CliResult> {
  const [id, ...argv] = args
  if (id === undefined || id.startsWith('-'))
    throw new Error(`runCommand needs a command id first, not ${JSON.stringify(args)}: spawn tapir() for help and --version`)
  const beforeEnd = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv
  if (beforeEnd.includes('--help')) throw new Error('oclif prints help before any command runs: spawn tapir() to test it')
  const loaded = await loadConfig()
  const found = loaded.findCommand(id)
  if (found === undefined) throw new Error(`no command ${id} in oclif's registry: spawn tapir() to test the unknown-command hook`)
  const CommandClass = await found.load()
  const command: unknown = Reflect.construct(CommandClass, [argv, loaded])
  if (!printsWhatItProduces(command)) throw new Error(`${id} does not print just the Outcome it produces: spawn tapir() to test it`)

  const captured = {stdout: '', stderr: ''}
  // A HOME of its own, removed after: the unit tier shares modules between test files, so a
  // per-file cleanup registered as a helper loads would run for the first file only.
  const home = tempDir('tapir-home-')
  const restore = [
    home.remove,
    capture(process.stdout, (text) => (captured.stdout += text)),
    capture(process.stderr, (text) => (captured.stderr += text)),
    // NODE_ENV stays the test's: no command reads it.
    overrideEnv({HOME: home.path, NO_COLOR: '1', ...options.env}),
  ]
  const exitCode = process.exitCode
  let outcome: Outcome
  try {
    await command.init() // what oclif's _run does before run(): a deprecation warning, if any
    outcome = await command.produce()
  } finally {
    for (const undo of restore.reverse()) undo()
    process.exitCode = exitCode
  }
  // A pipe: never a terminal, so never coloured.
  const rendered = renderOutcome(outcome)
  return {
    stdout: asPiped(captured.stdout + rendered.stdout),
    stderr: asPiped(captured.stderr + rendered.stderr),
    exitCode: rendered.exitCode,
  }
}

/** A tapir command whose `run` is the base one (OutcomeCommand's), which prints exactly
 *  `produce()`'s Outcome, or one whose class defines both side by side (install, uninstall);
 *  mcp:serve and mcp:install print their own way. Read from the prototypes by name: the unit
 *  tier shares modules between files, and a class may come from another copy of its module. */
function printsWhatItProduces(command: unknown): command is Producer {
  for (let proto: unknown = Object.getPrototypeOf(command); proto !== null && proto !== undefined; proto = Object.getPrototypeOf(proto)) {
    if (!Object.hasOwn(proto, 'run')) continue
    const owner = (proto as {constructor?: {name?: string}}).constructor?.name
    return Object.hasOwn(proto, 'produce') || owner === OutcomeCommand.name
  }
  return false
}

/** What a command writes while it runs (progress lines) is part of its output, in order. */
function capture(stream: NodeJS.WriteStream, sink: (text: string) => void): () => void {
  const write = Object.getOwnPropertyDescriptor(stream, 'write')
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    sink(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
    const done = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined
    done?.()
    return true
  }) as typeof stream.write
  return () => {
    if (write) Object.defineProperty(stream, 'write', write)
    else delete (stream as {write?: unknown}).write
  }
}

/** The spawned CLI's environment differences, for the length of one command. */
function overrideEnv(values: Record<string, string>): () => void {
  const before = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]))
  Object.assign(process.env, values)
  return () => {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
}

/** The text as it arrives through a pipe and execa hands it over: UTF-8 encoded and decoded,
 *  one final newline stripped. */
function asPiped(text: string): string {
  return Buffer.from(text, 'utf8')
    .toString('utf8')
    .replace(/\r?\n$/, '')
}
