import * as Flags from '@oclif/core/flags'
import type {Outcome} from '../lib/output/outcome.js'
import {NEXT_STEPS, PROJECT_FLAGS, ProjectCommand, planOutcome} from '../oclif/project-setup.js'
import {parseFailure} from '../oclif/tapir-command.js'

export default class Install extends ProjectCommand {
  static override aliases = ['tapir:install']
  static override summary = 'Set up this Flutter app for tapir: the tapir package in pubspec.yaml, TapirPlugin.install() in main().'
  static override description = `Adds tapir under dependencies in pubspec.yaml, and to main(), before the first runApp(: WidgetsFlutterBinding.ensureInitialized() when it is missing and TapirPlugin.install() behind if (!kReleaseMode), so release builds never carry it. Every line it adds ends with "added by tapir install", which is how tapir uninstall finds them. Running it again changes nothing. A main.dart it cannot patch safely is left as it is: it prints the lines to add by hand and exits 1. Both files are checked before either is written.`
  static override examples = [
    '<%= config.bin %> install',
    '<%= config.bin %> install --dry-run',
    '<%= config.bin %> install --project=apps/shop --target=lib/main_dev.dart',
  ]
  static override flags = {
    ...PROJECT_FLAGS,
    force: Flags.boolean({description: 'Add tapir to an app set up for the older Dusk package (DuskPlugin.install()) as well.'}),
  }

  protected async outcome(): Promise<Outcome> {
    const {flags} = await this.parse(Install).catch((error) => {
      throw parseFailure(error, this.id)
    })
    // The Dart parser (WebAssembly) loads with this command only.
    const {applyPlan, planInstall} = await import('../lib/install/install.js')
    const plan = await planInstall({cwd: process.cwd(), project: flags.project, target: flags.target, force: flags.force})
    if (!flags['dry-run']) applyPlan(plan, 'tapir install')
    return planOutcome(plan, {dryRun: flags['dry-run'], json: flags.json, verb: 'add', next: NEXT_STEPS})
  }
}
