import {ReloadCommand} from './reload-command.js'

export default class HotRestart extends ReloadCommand<typeof HotRestart> {
  static override summary = 'Hot restart the app: recompile and run main() again in a new isolate, with fresh state.'
  static override description =
    "Through the `flutter run` tapir started (tapir start --device=<id>), or, for an app tapir only attached to, through the hotRestart service `flutter run` registered on its VM Service. A compile error exits 1 with the compiler's message."
  static override examples = ['<%= config.bin %> hot-restart']
  protected readonly reloadKind = 'restart' as const

  protected parseInput() {
    return this.parse(HotRestart)
  }
}
