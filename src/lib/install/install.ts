import {TapirError} from '../errors.js'
import {ManualSteps} from './manual-steps.js'
import {TAPIR_CONSTRAINT} from './markers.js'
import {patchMain, readMain} from './patch-main.js'
import type {FileChange, ProjectPaths} from './project-files.js'
import {afterBom, locateProject, readSource, refuseLoneCr, shownPath, writeChanges} from './project-files.js'
import {addTapir, removeTapir} from './pubspec.js'
import {position} from './text-edits.js'
import {unifiedDiff} from './unified-diff.js'
import {unpatchMain} from './unpatch-main.js'

export interface ProjectRequest {
  cwd: string
  /** `--project`: the Flutter app's folder. */
  project?: string
  /** `--target`: the file holding main(), from the project's folder. */
  target?: string
}

/** A change to make, with its diff and what it adds or removes (`tapir ^1.0.0 under dependencies`). */
export interface PlannedChange extends FileChange {
  diff: string
  what: string
}

/** What install or uninstall would do: the files it changes, and what it leaves as it is and why. */
export interface Plan {
  root: string
  changes: PlannedChange[]
  unchanged: string[]
}

const MAIN_MISSING = 'pass --target=<file> with the file that holds main(), as flutter run -t takes it.'

function change(paths: ProjectPaths, path: string, before: string, after: string, what: string): PlannedChange {
  const shown = shownPath(paths.root, path)
  return {path, shown, before, after, diff: unifiedDiff(shown, before, after), what}
}

/** Plans `tapir install`: tapir under dependencies in pubspec.yaml, and TapirPlugin.install()
 *  behind `if (!kReleaseMode)` before the first runApp( in main(). Nothing is written here. */
export async function planInstall(request: ProjectRequest & {force: boolean}): Promise<Plan> {
  const paths = locateProject(request.cwd, request.project, request.target)
  const mainShown = shownPath(paths.root, paths.main)
  const pubspecText = refuseLoneCr(readSource(paths.pubspec, 'pubspec.yaml'), 'pubspec.yaml', 'tapir install')
  const mainText = refuseLoneCr(readSource(paths.main, mainShown, MAIN_MISSING), mainShown, 'tapir install')
  const pubspec = addTapir(pubspecText, 'pubspec.yaml')
  const main = await afterBom(mainText, (body) => patchMain(body, mainShown, {force: request.force})).catch((error: unknown) => {
    throw error instanceof ManualSteps ? error.withPubspec(pubspec.kind === 'added') : error
  })
  if (main.kind === 'dusk')
    throw new TapirError(
      `${mainShown} calls DuskPlugin.install() (line ${main.line}): the app is set up for the older Dusk package. Run tapir install --force to add tapir beside it. Nothing was written.`,
      'local',
    )
  const plan: Plan = {root: paths.root, changes: [], unchanged: []}
  if (pubspec.kind === 'added')
    plan.changes.push(change(paths, paths.pubspec, pubspecText, pubspec.text, `tapir ${TAPIR_CONSTRAINT} under dependencies`))
  else plan.unchanged.push(`pubspec.yaml already lists tapir (${pubspec.entry.constraint}) under ${pubspec.entry.section}`)
  if (main.kind === 'patched') plan.changes.push(change(paths, paths.main, mainText, main.text, main.added.join('; ')))
  else plan.unchanged.push(`${mainShown} already calls TapirPlugin.install() in main() (line ${main.line})`)
  return plan
}

/** Plans `tapir uninstall`: out come the lines `tapir install` added (they carry its mark), and
 *  nothing else. */
export async function planUninstall(request: ProjectRequest): Promise<Plan> {
  const paths = locateProject(request.cwd, request.project, request.target)
  const mainShown = shownPath(paths.root, paths.main)
  const pubspecText = refuseLoneCr(readSource(paths.pubspec, 'pubspec.yaml'), 'pubspec.yaml', 'tapir uninstall')
  const mainText = refuseLoneCr(readSource(paths.main, mainShown, MAIN_MISSING), mainShown, 'tapir uninstall')
  const plan: Plan = {root: paths.root, changes: [], unchanged: []}
  const pubspec = removeTapir(pubspecText, 'pubspec.yaml')
  const main = await afterBom(mainText, (body) => unpatchMain(body, mainShown))
  if (pubspec.kind === 'removed') plan.changes.push(change(paths, paths.pubspec, pubspecText, pubspec.text, 'tapir from dependencies'))
  else if (pubspec.kind === 'absent') plan.unchanged.push('pubspec.yaml does not list tapir')
  else
    plan.unchanged.push(
      `pubspec.yaml lists tapir (${pubspec.entry.constraint}) under ${pubspec.entry.section}, but not on a line tapir install added: left as it is`,
    )
  if (main.text !== mainText) {
    plan.changes.push(change(paths, paths.main, mainText, main.text, main.removed.join('; ')))
    plan.unchanged.push(...main.kept.map((kept) => `${mainShown}: kept ${kept}`))
  } else {
    const body = mainText.replace(/^\uFEFF/, '')
    const call = body.includes('TapirPlugin') ? (await readMain(body)).tapirCalls[0] : undefined
    plan.unchanged.push(
      call
        ? `${mainShown} calls TapirPlugin.install() (line ${position(body, call.name.startIndex).line}), but not on a line tapir install added: left as it is`
        : `${mainShown} has nothing tapir install added`,
    )
  }
  return plan
}

/** Writes a plan's changes: all of them or none. */
export function applyPlan(plan: Plan, command: string): void {
  writeChanges(plan.root, plan.changes, command)
}
