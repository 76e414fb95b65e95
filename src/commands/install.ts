import {defineCommand} from '../lib/commands/types.js'
import type {Outcome} from '../lib/output/outcome.js'
import {NEXT_STEPS, PROJECT_PARAMS, planOutcome} from './project-plan.js'

export const INSTALL = defineCommand({
  id: 'install',
  aliases: ['tapir:install'],
  summary: 'Set up this Flutter app for tapir: the tapir package in pubspec.yaml, TapirPlugin.install() in main().',
  description: `Adds tapir under dependencies in pubspec.yaml, and to main(), before the first runApp(: WidgetsFlutterBinding.ensureInitialized() when it is missing and TapirPlugin.install() behind if (!kReleaseMode), so release builds never carry it. Every line it adds ends with "added by tapir install", which is how tapir uninstall finds them. Running it again changes nothing. A main.dart it cannot patch safely is left as it is: it prints the lines to add by hand and exits 1. Both files are checked before either is written.`,
  examples: [
    '<%= config.bin %> install',
    '<%= config.bin %> install --dry-run',
    '<%= config.bin %> install --project=apps/shop --target=lib/main_dev.dart',
  ],
  params: [
    ...PROJECT_PARAMS,
    {
      name: 'force',
      type: 'boolean',
      default: false,
      description: 'Add tapir to an app set up for the older Dusk package (DuskPlugin.install()) as well.',
    },
  ],
  globals: 'none',
  session: 'none',
  async run(flags): Promise<Outcome> {
    // The Dart parser (WebAssembly) loads with this command only.
    const {applyPlan, planInstall} = await import('../lib/install/install.js')
    const plan = await planInstall({cwd: process.cwd(), project: flags.project, target: flags.target, force: flags.force})
    if (!flags['dry-run']) applyPlan(plan, 'tapir install')
    return planOutcome(plan, {dryRun: flags['dry-run'], json: flags.json, verb: 'add', next: NEXT_STEPS})
  },
})
