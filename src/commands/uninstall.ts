import type {Outcome} from '../lib/output/outcome.js'
import {PROJECT_FLAGS, ProjectCommand, planOutcome} from '../oclif/project-setup.js'
import {parseFailure} from '../oclif/tapir-command.js'

export default class Uninstall extends ProjectCommand {
  static override summary = 'Undo tapir install: remove the lines it added to pubspec.yaml and main(), and nothing else.'
  static override description =
    'The lines tapir install added end with "added by tapir install"; those go, and an arrow body it turned into a block is turned back, so an unedited file gets its original bytes back. A tapir line you wrote yourself stays. Both files are checked before either is written.'
  static override examples = ['<%= config.bin %> uninstall', '<%= config.bin %> uninstall --dry-run']
  static override flags = PROJECT_FLAGS

  protected async outcome(): Promise<Outcome> {
    const {flags} = await this.parse(Uninstall).catch((error) => {
      throw parseFailure(error, this.id)
    })
    const {applyPlan, planUninstall} = await import('../lib/install/install.js')
    const plan = await planUninstall({cwd: process.cwd(), project: flags.project, target: flags.target})
    if (!flags['dry-run']) applyPlan(plan, 'tapir uninstall')
    return planOutcome(plan, {dryRun: flags['dry-run'], json: flags.json, verb: 'remove', next: []})
  }
}
