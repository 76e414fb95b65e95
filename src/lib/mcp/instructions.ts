import type {Catalogue} from './catalogues.js'

/** What the server tells an agent at initialize, before its first call: how to begin, what a
 *  ref is, how to wait, and what an error's exitCode means. */
const TAPIR = [
  'tapir drives one running Flutter app. With no app yet: tapir_devices lists device ids; tapir_start with device "sim" runs the simulated app (or a flutter device id runs yours); tapir_attach records an app already running; tapir_status says whether it answers; tapir_stop ends what tapir_start began.',
  'Refs: tapir_snap tags each actionable widget [ref=eN], valid until the screen changes; tapir_find and tapir_observe give qN handles, looked up again on every use. A stale or unknown ref: take a fresh tapir_snap.',
  'Waits: after an action that loads or animates, tapir_wait_for a text, key or route instead of sleeping; tapir_wait_for_network_idle after data loads.',
  "An app without the tapir package is driven zero-install (tapir_status says so) through Flutter's semantics and evaluate; a tool needing more says tapir install adds the package.",
  'Errors carry {"error": {message, exitCode, envelope?}}: exitCode 1 is the call or this machine (fix the arguments, start a session), 3 is the app refusing or not answering (read the message: it names the next step).',
  // The one place step lines are described: tools/list has no bytes to spare (test/contract/mcp-tools.test.ts).
  `tapir_run makes many calls in one: a step is a tool's name without tapir_, then each argument as a word, as in "tap --ref=e5" or "fill --ref=e3 --text='Ada L'" (quote a value with spaces; a boolean alone is true, "--no-name" false; a list is comma-separated). "find --key=save --as=s" then "tap --ref=@s" reuses what find matched. It stops at the first failed step (continue: true goes on) and answers each step's line.`,
].join('\n')

const DUSK = [
  'These are the 31 dusk_* tools of Dusk 0.0.1, served by tapir over the app of the session recorded by `tapir start` or `tapir attach`.',
  'Refs: dusk_snap tags each actionable widget [ref=eN]; dusk_find gives qN handles looked up again on every use. A stale or unknown ref: take a fresh dusk_snap.',
  'Errors carry {"error": {message, exitCode}}: 1 is the call or this machine, 3 the app refusing or not answering.',
].join('\n')

export function instructionsFor(catalogue: Catalogue): string {
  return catalogue === 'dusk' ? DUSK : TAPIR
}
