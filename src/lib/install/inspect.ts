import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {TapirError} from '../errors.js'
import {findProjectRoot} from '../session/project-root.js'
import {firstSyntaxError} from './dart-parser.js'
import {readMain} from './patch-main.js'
import {DEFAULT_TARGET, readSource} from './project-files.js'
import {readPubspec} from './pubspec.js'
import {position} from './text-edits.js'

/** Whether a project is set up for tapir, as `tapir doctor` reports it. */
export type ProjectSetup =
  | {state: 'no-project'}
  | {state: 'unreadable'; root: string; reason: string}
  | {
      state: 'read'
      root: string
      pubspec: string | undefined
      main: {found: false} | {found: true; call: number | undefined; broken?: number}
    }

/** Reads the project's pubspec.yaml and lib/main.dart: tapir listed, and TapirPlugin.install()
 *  called in main(). */
export async function inspectProject(cwd: string): Promise<ProjectSetup> {
  const root = findProjectRoot(cwd)
  if (!existsSync(join(root, 'pubspec.yaml'))) return {state: 'no-project'}
  let pubspec: string | undefined
  try {
    const entry = readPubspec(readSource(join(root, 'pubspec.yaml'), 'pubspec.yaml'), 'pubspec.yaml').tapir
    pubspec = entry ? `${entry.constraint} under ${entry.section}` : undefined
  } catch (error) {
    return {state: 'unreadable', root, reason: error instanceof TapirError ? error.message : String(error)}
  }
  const path = join(root, DEFAULT_TARGET)
  if (!existsSync(path)) return {state: 'read', root, pubspec, main: {found: false}}
  let text: string
  try {
    text = readSource(path, DEFAULT_TARGET)
  } catch (error) {
    return {state: 'unreadable', root, reason: error instanceof TapirError ? error.message : String(error)}
  }
  const facts = await readMain(text)
  const broken = firstSyntaxError(facts.root)
  const call = facts.tapirCalls[0]
  return {
    state: 'read',
    root,
    pubspec,
    main: {
      found: true,
      call: call ? position(text, call.name.startIndex).line : undefined,
      ...(broken ? {broken: position(text, broken.startIndex).line} : {}),
    },
  }
}
