import {defineCommand} from '../lib/commands/types.js'
import type {Outcome} from '../lib/output/outcome.js'
import {PROJECT_PARAMS, planOutcome} from './project-plan.js'

export const UNINSTALL = defineCommand({
  id: 'uninstall',
  summary: 'Undo tapir install: remove the lines it added to pubspec.yaml and main(), and nothing else.',
  description:
    'The lines tapir install added end with "added by tapir install"; those go, and an arrow body it turned into a block is turned back, so an unedited file gets its original bytes back. A tapir line you wrote yourself stays. Both files are checked before either is written.',
  examples: ['<%= config.bin %> uninstall', '<%= config.bin %> uninstall --dry-run'],
  params: PROJECT_PARAMS,
  globals: 'none',
  session: 'none',
  async run(flags): Promise<Outcome> {
    const {applyPlan, planUninstall} = await import('../lib/install/install.js')
    const plan = await planUninstall({cwd: process.cwd(), project: flags.project, target: flags.target})
    if (!flags['dry-run']) applyPlan(plan, 'tapir uninstall')
    return planOutcome(plan, {dryRun: flags['dry-run'], json: flags.json, verb: 'remove', next: []})
  },
})
