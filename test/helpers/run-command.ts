import {HelpAsked} from '../../src/cli/command-line.js'
import {commandLineOutcome} from '../../src/cli/command-outcome.js'
import {verbLineOutcome} from '../../src/cli/verb-outcome.js'
import {COMMANDS} from '../../src/commands/list.js'
import {commandNamed} from '../../src/lib/commands/run-command.js'
import type {Outcome} from '../../src/lib/output/outcome.js'
import {renderOutcome} from '../../src/lib/output/print.js'
import {verbNamed} from '../../src/lib/verbs/index.js'
import {type CliResult, tempDir} from './cli.js'

/** Runs `tapir <args>` in this process the way the bundle runs a line (src/cli/main.ts): the
 *  verb or command it names, read by the one reader and run by the one runner, from src/ (an
 *  edit needs no build). Returns what the spawned CLI (`tapir()` in cli.ts) returns for the same
 *  words: its stdout and stderr as a pipe carries them (uncoloured, the final newline stripped
 *  as execa strips it) and its exit code. What the process boundary or oclif alone decides is
 *  refused rather than imitated: stdin, a working folder, help and the version, an unknown
 *  command. Pass --state: the working folder is the test's own. */
export async function runCommand(args: string[], options: {env?: Record<string, string>} = {}): Promise<CliResult> {
  const [id, ...argv] = args
  if (id === undefined || id.startsWith('-'))
    throw new Error(`runCommand needs a command id first, not ${JSON.stringify(args)}: spawn tapir() for help and --version`)
  const verb = id.startsWith('tapir:') ? verbNamed(id.slice('tapir:'.length)) : undefined
  const command = verb ? undefined : commandNamed(COMMANDS, id)
  const produce = verb
    ? () => verbLineOutcome(verb, argv, undefined, {help: true})
    : command && (() => commandLineOutcome(command, argv, COMMANDS))
  if (!produce) throw new Error(`no command ${id}: spawn tapir() to test oclif's unknown-command hook`)

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
    outcome = await produce()
  } catch (error) {
    if (error instanceof HelpAsked) throw new Error('oclif prints help for this line: spawn tapir() to test it', {cause: error})
    throw error
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
