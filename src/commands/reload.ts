import {ReloadCommand} from './reload-command.js'

export default class Reload extends ReloadCommand<typeof Reload> {
  static override summary = "Hot reload the app: recompile the changed code and build the widgets again, keeping the app's state."
  static override description =
    "Through the `flutter run` tapir started (tapir start --device=<id>), or, for an app tapir only attached to, through the reloadSources service `flutter run` registered on its VM Service. A compile error exits 1 with the compiler's message."
  static override examples = ['<%= config.bin %> reload']
  protected readonly reloadKind = 'reload' as const

  protected parseInput() {
    return this.parse(Reload)
  }
}
