/** The run's own flags as they may appear on its command line: which of them take a value. */
export type RunFlagSpec = Record<string, {takesValue: boolean}>

/**
 * The step arguments of a run, in the order given: the raw argv without the run's own flags
 * (`--flag value`, `--flag=value` or a lone boolean `--flag`, anywhere), and everything after a
 * `--` as steps. Read from the raw argv because a non-strict parser may reorder what it leaves.
 */
export function stepArguments(argv: readonly string[], flags: RunFlagSpec): string[] {
  const steps: string[] = []
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]
    if (word === '--') {
      steps.push(...argv.slice(index + 1))
      break
    }
    const name = /^--([^=]+)/.exec(word)?.[1]
    const flag = name === undefined || !Object.hasOwn(flags, name) ? undefined : flags[name]
    if (!flag) {
      steps.push(word)
      continue
    }
    if (flag.takesValue && !word.includes('=')) index++
  }
  return steps
}
