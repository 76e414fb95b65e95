import {commandParams} from '../lib/commands/types.js'
import type {Plan} from '../lib/install/install.js'
import {EXIT} from '../lib/output/exit-codes.js'
import type {Outcome} from '../lib/output/outcome.js'

/** The params `install` and `uninstall` share: commands about the project's files, not the app. */
export const PROJECT_PARAMS = commandParams(
  {name: 'project', type: 'string', description: "The Flutter app's folder (default: the nearest folder above with a pubspec.yaml)."},
  {
    name: 'target',
    type: 'string',
    description: 'The file that holds main(), from the project folder, as `flutter run -t` takes it.',
    default: 'lib/main.dart',
  },
  {name: 'dry-run', type: 'boolean', description: 'Print the unified diff of the changes and write nothing.', default: false},
  {name: 'json', type: 'boolean', description: 'Print the changes as JSON.', default: false},
)

export const NEXT_STEPS = ['flutter pub get', 'tapir start --device=<id>', 'tapir mcp:install']

/** What a planned (and, without --dry-run, written) install or uninstall prints: the diff, a
 *  line per file, and after an install that changed something, what to run next. */
export function planOutcome(plan: Plan, options: {dryRun: boolean; json: boolean; verb: 'add' | 'remove'; next: string[]}): Outcome {
  const {dryRun, json, verb} = options
  const next = plan.changes.length > 0 && !dryRun ? options.next : []
  if (json) {
    const changes = plan.changes.map(({shown, what, diff}) => ({file: shown, [verb === 'add' ? 'added' : 'removed']: what, diff}))
    const result = {project: plan.root, dryRun, written: !dryRun && plan.changes.length > 0, changes, unchanged: plan.unchanged, next}
    return {stdout: JSON.stringify(result), stderr: [], exitCode: EXIT.ok}
  }
  const done = verb === 'add' ? 'added' : 'removed'
  const lines = plan.changes.length > 0 ? [...plan.changes.map((change) => change.diff), ''] : []
  if (dryRun) {
    lines.push(...plan.changes.map((change) => `${change.shown}: would ${verb} ${change.what}`))
    lines.push(...plan.unchanged.map((line) => `${line}`))
    lines.push(plan.changes.length > 0 ? 'Dry run: nothing was written.' : 'Dry run: there is nothing to change.')
  } else {
    lines.push(...plan.changes.map((change) => `✓ ${change.shown}: ${done} ${change.what}`))
    lines.push(...plan.unchanged.map((line) => `✓ ${line}`))
    if (plan.changes.length === 0)
      lines.push(verb === 'add' ? '✓ Already installed: nothing changed.' : '✓ Nothing to remove: nothing changed.')
    if (next.length > 0) lines.push('Next:', ...next.map((step) => `  ${step}`))
  }
  return {stdout: lines.join('\n'), stderr: [], exitCode: EXIT.ok}
}
