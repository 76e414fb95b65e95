import {pageVisibility} from '../cdp/page-visibility.js'
import {CdpPage} from '../cdp/page.js'
import {TapirError, type Surface, type Words} from '../errors.js'
import {redactToken} from '../output/redact-token.js'
import type {SessionLocation} from '../session/location.js'
import {checkOwnership} from '../session/require-session.js'
import {assessProcesses} from '../session/session-processes.js'
import type {Session} from '../session/session.js'
import {readSession} from '../session/store.js'
import {WORDS} from '../verbs/words.js'
import {AppConnection} from '../vm/app-connection.js'
import {Deadline} from '../vm/deadline.js'
import {routesAnswer} from '../vm/tapir-answers.js'
import {toWebSocketUri} from '../vm/uri.js'
import {ZERO_INSTALL_NOTE, zeroInstallable} from '../vm/zero-install.js'

/** One line of `tapir doctor`: what was checked, whether it holds, and whether tapir can work
 *  without it (a blocking failure makes doctor exit 1). */
export interface Check {
  name: string
  ok: boolean
  blocking: boolean
  detail: string
}

const passed = (name: string, detail: string): Check => ({name, ok: true, blocking: false, detail})
const failed = (name: string, detail: string, blocking = true): Check => ({name, ok: false, blocking, detail})
const reason = (error: unknown, surface: Surface): string =>
  redactToken(error instanceof TapirError ? error.messageFor(WORDS[surface]) : error instanceof Error ? error.message : String(error))

/** Every check, in the order a fix has to happen: a later one is skipped when it cannot run. Its
 *  next steps are worded for `surface` (tapir_doctor names tools, not commands). */
export async function diagnose(location: SessionLocation, cwd: string, timeoutMs: number, surface: Surface = 'cli'): Promise<Check[]> {
  const words = WORDS[surface]
  return [await projectCheck(cwd, words), ...(await sessionChecks(location, cwd, timeoutMs, surface))]
}

/** `tapir install` has no tool: over MCP it is a command to run in a terminal. */
const install = (words: Words, cliExtra = '') =>
  words.only(`run \`tapir install\`${cliExtra}`, 'run tapir install in a terminal in the project (no MCP tool installs the package)')

/** The Flutter project here: tapir in pubspec.yaml, TapirPlugin.install() in lib/main.dart. The
 *  Dart parser loads only when there is a project to read. Without the dependency the app cannot
 *  have tapir; a main.dart without the call is only worth knowing (another entry point, run with
 *  `flutter run -t`, may hold it). */
async function projectCheck(cwd: string, words: Words): Promise<Check> {
  const {inspectProject} = await import('../install/inspect.js')
  const setup = await inspectProject(cwd)
  if (setup.state === 'no-project')
    return failed(
      'project',
      `no pubspec.yaml in ${cwd} or above: ${words.only('run tapir doctor', 'run the MCP server')} in your Flutter app's folder to check its set-up`,
      false,
    )
  if (setup.state === 'unreadable') return failed('project', setup.reason)
  const {root, pubspec, main} = setup
  const callLine = main.found ? main.call : undefined
  const mainText = !main.found
    ? 'no lib/main.dart'
    : main.broken !== undefined
      ? `lib/main.dart does not parse as Dart (line ${main.broken})`
      : callLine === undefined
        ? 'lib/main.dart does not call TapirPlugin.install()'
        : undefined
  if (pubspec === undefined)
    return failed('project', `${root}: pubspec.yaml does not list tapir${mainText ? `, and ${mainText}` : ''}: ${install(words)}`)
  if (mainText)
    return failed('project', `${root}: ${mainText}: ${install(words, ' (with --target=<file> for another entry point)')}`, false)
  return passed('project', `${root}: tapir ${pubspec} in pubspec.yaml, TapirPlugin.install() in lib/main.dart (line ${callLine})`)
}

async function sessionChecks(location: SessionLocation, cwd: string, timeoutMs: number, surface: Surface): Promise<Check[]> {
  const words = WORDS[surface]
  let session: Session | undefined
  try {
    session = readSession(location)
  } catch (error) {
    return [failed('session', reason(error, surface))]
  }
  if (!session)
    return [
      failed(
        'session',
        `none at ${location.path}: ${words.only(
          'run `tapir start --device=<id>` or `tapir attach --uri <VM Service URI>`',
          'call tapir_start (device "sim", or an id from tapir_devices) or tapir_attach with the VM Service URI',
        )}`,
      ),
    ]
  const sessionFile = sessionCheck(location, session, cwd, surface)
  const checks = [sessionFile, processCheck(session, words)]
  if (!sessionFile.ok) return checks
  if (typeof session.vmServiceUri !== 'string' || session.vmServiceUri === '')
    return [
      ...checks,
      failed(
        'vm service',
        `the app is still booting: no VM Service URI yet; wait for ${words.only('`tapir start`', 'tapir_start')} to finish`,
      ),
    ]
  checks.push(...(await appChecks(session.vmServiceUri, timeoutMs, surface)))
  if (session.cdpPort !== undefined && session.cdpPort !== null) checks.push(await chromeCheck(session, timeoutMs, surface))
  return checks
}

function sessionCheck(location: SessionLocation, session: Session, cwd: string, surface: Surface): Check {
  try {
    checkOwnership(location, session, cwd)
  } catch (error) {
    return failed('session', reason(error, surface))
  }
  const device = session.device ?? 'unknown'
  return passed('session', `${location.path} (device ${device}${session.booting === true ? ', booting' : ''})`)
}

/** The processes tapir started for the session: still its own, or gone. One it cannot prove is
 *  its own is reported (stop would refuse it) but does not stop the verbs from working. */
function processCheck(session: Session, words: Words): Check {
  const assessed = assessProcesses(session)
  const foreign = assessed.filter((entry) => entry.state === 'foreign')
  if (foreign.length > 0)
    return failed(
      'processes',
      `tapir cannot prove it started ${foreign.map((entry) => `${entry.role} pid=${String(entry.pid)}`).join(', ')}; ${words.only('`tapir stop`', 'tapir_stop')} will refuse them`,
      false,
    )
  const running = assessed.flatMap((entry) => (entry.state === 'ours' ? [`${entry.role} pid=${entry.process.pid}`] : []))
  const gone = assessed.flatMap((entry) => (entry.state === 'gone' ? [`${entry.role} pid=${entry.pid}`] : []))
  if (running.length === 0 && gone.length === 0) return passed('processes', 'none started by tapir (an attached app)')
  return passed(
    'processes',
    [running.length > 0 ? `running: ${running.join(', ')}` : '', gone.length > 0 ? `gone: ${gone.join(', ')}` : '']
      .filter(Boolean)
      .join('; '),
  )
}

/** An app still on tapir's predecessor: it works, with less; how to move on. */
const duskPackage = (words: Words): Check =>
  failed(
    'tapir',
    `the app runs Dusk 0.0.1 (ext.dusk.*), tapir's predecessor: the verbs it has work, but fill, reset_overlays, the perf verbs and parameters 0.0.1 lacks (${words.only('find --within, exceptions --clear', "tapir_find's within, tapir_exceptions' clear")}, snapshot diffs, ...) are refused, and answers carry no effect blocks or frame warnings. To move to tapir, depend on the tapir package in place of fluttersdk_dusk and call TapirPlugin.install() in main() in place of DuskPlugin.install() (${words.only('tapir install --force', 'tapir install in a terminal, forced,')} adds tapir beside Dusk).`,
    false,
  )

/** The VM Service, tapir's extensions in the app, and whether the app draws frames. */
async function appChecks(uri: string, timeoutMs: number, surface: Surface): Promise<Check[]> {
  let app: AppConnection
  try {
    app = await AppConnection.open(toWebSocketUri(uri), timeoutMs)
  } catch (error) {
    return [failed('vm service', reason(error, surface))]
  }
  try {
    const checks = [passed('vm service', `answering at ${redactToken(toWebSocketUri(uri))}`)]
    if (!(await app.hasTapir(new Deadline(timeoutMs)))) {
      if (zeroInstallable(await app.extensionRPCs(new Deadline(timeoutMs)))) return [...checks, passed('tapir', ZERO_INSTALL_NOTE)]
      return [
        ...checks,
        failed(
          'tapir',
          "the app has no ext.tapir.* extensions (nor Dusk 0.0.1's ext.dusk.*): add the tapir package and call TapirPlugin.install() in main(), or wait for the app to finish booting",
        ),
      ]
    }
    if ((await app.appPackage(new Deadline(timeoutMs))) === 'dusk') return [...checks, duskPackage(WORDS[surface])]
    checks.push(passed('tapir', 'the app runs the tapir package: its ext.tapir.* extensions are registered'))
    const {warnings} = await app.callExtension('get_routes', {}, routesAnswer, new Deadline(timeoutMs))
    checks.push(
      warnings
        ? failed(
            'frames',
            `the app is not producing frames (lifecycle: ${warnings.lifecycleState ?? 'unknown'}): gestures cannot take effect; bring its window or tab to the front`,
          )
        : passed('frames', 'the app is producing frames'),
    )
    return checks
  } catch (error) {
    if (error instanceof TapirError) return [failed('tapir', reason(error, surface))]
    throw error
  } finally {
    app.close()
  }
}

/** The Chrome a web session names: its DevTools port answers, the page is this run's, and it is
 *  visible (a hidden tab draws no frames). */
async function chromeCheck(session: Session, timeoutMs: number, surface: Surface): Promise<Check> {
  const port = Number(session.cdpPort)
  const webPort = session.webPort === null || session.webPort === undefined ? undefined : Number(session.webPort)
  let page: CdpPage
  try {
    page = await CdpPage.open({port, ...(webPort === undefined ? {} : {webPort})}, new Deadline(timeoutMs))
  } catch (error) {
    return failed('chrome', reason(error, surface))
  }
  try {
    const served = webPort === undefined || new URL(page.url).port === String(webPort)
    if (!served) return failed('chrome', `the page on CDP port ${port} is ${page.url}, not the app served on port ${webPort}`)
    const visibility = await pageVisibility(page)
    if (visibility !== 'visible')
      return failed('chrome', `the app's tab is ${String(visibility)}: it draws no frames; bring it to the front`)
    return passed('chrome', `CDP port ${port} answers; the app's page is visible (${page.url})`)
  } catch (error) {
    return failed('chrome', reason(error, surface))
  } finally {
    await page.close()
  }
}
