import type {Call, MainFunction} from './dart-main.js'
import {callsOf, directiveAnchor, enclosingBody, findMain, imported, importsOf, isComment} from './dart-main.js'
import type {DartNode} from './dart-parser.js'
import {firstSyntaxError, parseDart} from './dart-parser.js'
import {ManualSteps, type MissingParts} from './manual-steps.js'
import {ARROW_MARKS, DART_MARK, ENSURE_INITIALIZED, FOUNDATION_URI, GUARD_LINES, TAPIR_URI, importLine} from './markers.js'
import type {TextEdit} from './text-edits.js'
import {applyEdits, endsItsLine, indentationAt, lineEnding, lineStart, nextLineStart, position, startsItsLine} from './text-edits.js'
import {unpatchMain} from './unpatch-main.js'

export type MainPatch = {kind: 'installed'; line: number} | {kind: 'dusk'; line: number} | {kind: 'patched'; text: string; added: string[]}

/** What `main.dart` looks like to install: parsed, with its main and the calls that matter. */
export interface MainFacts {
  root: DartNode
  main: MainFunction | undefined
  tapirCalls: Call[]
  duskCalls: Call[]
}

export async function readMain(text: string): Promise<MainFacts> {
  const root = await parseDart(text)
  const main = findMain(root)
  const scope = main?.body
  return {
    root,
    main,
    tapirCalls: scope ? callsOf(scope, 'install', 'TapirPlugin') : [],
    duskCalls: scope ? callsOf(scope, 'install', 'DuskPlugin') : [],
  }
}

const ALL_MISSING: MissingParts = {foundationImport: true, tapirImport: true, ensureInitialized: true}

/** The patched text of a main.dart, or why it is installed already. A file it cannot patch
 *  safely throws `ManualSteps`: the reason, and the lines to add by hand. */
export async function patchMain(text: string, shown: string, options: {force: boolean}): Promise<MainPatch> {
  const facts = await readMain(text)
  const {root, main} = facts
  const refuse = (reason: string, missing: MissingParts = ALL_MISSING): never => {
    throw new ManualSteps(shown, reason, missing)
  }
  const broken = firstSyntaxError(root)
  if (broken) {
    const at = position(text, broken.startIndex)
    refuse(`it does not parse as Dart (line ${at.line}, column ${at.column})`)
  }
  if (root.namedChildren.some((node) => node.type === 'part_of_directive')) refuse('it is a part of another library (`part of`)')
  if (!main) return refuse('it has no top-level main()')
  const installed = facts.tapirCalls[0]
  if (installed) return {kind: 'installed', line: position(text, installed.name.startIndex).line}
  const dusk = facts.duskCalls[0]
  if (dusk && !options.force) return {kind: 'dusk', line: position(text, dusk.name.startIndex).line}

  const imports = importsOf(root)
  const missing: MissingParts = {
    foundationImport: !imported(imports, FOUNDATION_URI, 'kReleaseMode'),
    tapirImport: !imported(imports, TAPIR_URI, 'TapirPlugin'),
    ensureInitialized: true,
  }
  const runApp = callsOf(main.body, 'runApp')[0]
  if (!runApp) return refuse('main() has no runApp( call', missing)
  const body = enclosingBody(runApp.name)
  if (!body) return refuse('runApp( is not inside a function body', missing)

  const eol = lineEnding(text)
  const block = body.namedChildren.find((child) => child.type === 'block')
  const callEdit = block ? beforeStatement(text, block, runApp, facts, eol) : arrowToBlock(text, body, runApp, facts, eol)
  missing.ensureInitialized = callEdit.ensureInitialized
  if ('reason' in callEdit) return refuse(callEdit.reason, missing)

  const uris = [missing.foundationImport ? FOUNDATION_URI : undefined, missing.tapirImport ? TAPIR_URI : undefined].filter(
    (uri) => uri !== undefined,
  )
  const importsAdded = importEdits(text, root, uris, eol)
  if (!importsAdded) return refuse('tapir cannot tell where its imports would go', missing)
  const edits = [callEdit.edit, ...importsAdded]
  const patched = applyEdits(text, edits)
  await checkPatched(text, patched, shown, missing)
  return {
    kind: 'patched',
    text: patched,
    added: [
      ...(missing.foundationImport || missing.tapirImport
        ? [
            `import of ${[missing.foundationImport ? FOUNDATION_URI : '', missing.tapirImport ? TAPIR_URI : ''].filter(Boolean).join(' and ')}`,
          ]
        : []),
      ...(callEdit.ensureInitialized ? ['WidgetsFlutterBinding.ensureInitialized()'] : []),
      'TapirPlugin.install() behind if (!kReleaseMode), before runApp(',
    ],
  }
}

type CallEdit = {edit: TextEdit; ensureInitialized: boolean} | {reason: string; ensureInitialized: boolean}

/** Whether the binding is initialized before `offset` in main (`*.ensureInitialized()`). */
const initializedBefore = (facts: MainFacts, offset: number): boolean =>
  facts.main !== undefined && callsOf(facts.main.body, 'ensureInitialized').some((call) => call.name.startIndex < offset)

/** The lines install adds before runApp, each carrying the mark, indented by `indent`. */
function addedLines(indent: string, ensureInitialized: boolean, eol: string): string {
  const lines = [
    ...(ensureInitialized ? [`${ENSURE_INITIALIZED} ${DART_MARK}`] : []),
    GUARD_LINES[0],
    `${GUARD_LINES[1]} ${DART_MARK}`,
    GUARD_LINES[2],
  ]
  return lines.map((line) => `${indent}${line}${eol}`).join('')
}

/** In a block body: the lines go on their own lines before the statement that holds runApp, and
 *  before the comment lines right above it, which belong to it. */
function beforeStatement(text: string, block: DartNode, runApp: Call, facts: MainFacts, eol: string): CallEdit {
  let statement = runApp.name
  while (statement.parent && statement.parent.id !== block.id) statement = statement.parent
  const ensureInitialized = !initializedBefore(facts, statement.startIndex)
  if (!startsItsLine(text, statement.startIndex))
    return {
      reason: 'runApp( shares its line with other code: format the file (dart format), then run tapir install again',
      ensureInitialized,
    }
  const anchor = commentsAbove(text, statement)
  const at = lineStart(text, anchor.startIndex)
  return {edit: {start: at, end: at, insert: addedLines(indentationAt(text, anchor.startIndex), ensureInitialized, eol)}, ensureInitialized}
}

/** In an arrow body (`=> runApp(…)`): the body becomes a block holding the added lines and the
 *  call, its `{` marked with how the arrow read so uninstall can turn it back. */
function arrowToBlock(text: string, body: DartNode, runApp: Call, facts: MainFacts, eol: string): CallEdit {
  const children = body.children
  const arrow = children.find((child) => child.type === '=>')
  const ensureInitialized = !initializedBefore(facts, arrow?.startIndex ?? body.startIndex)
  if (!arrow) return {reason: 'tapir cannot read the body of the function that calls runApp(', ensureInitialized}
  const lastChild = children.at(-1)
  const semicolon = lastChild?.type === ';' ? lastChild : undefined
  const expression = children.filter((child) => child.startIndex >= arrow.endIndex && child.id !== semicolon?.id)
  const first = expression[0]
  const last = expression.at(-1)
  if (first?.id !== runApp.first.id || last?.id !== runApp.arguments.id)
    return {
      reason: 'runApp( is part of a larger `=>` expression: give that function a block body, then run tapir install again',
      ensureInitialized,
    }
  const gap = text.slice(arrow.endIndex, first.startIndex)
  const base = indentationAt(text, arrow.startIndex)
  const inner = `${base}  `
  let mark: string
  let callIndent: string
  if (gap === ' ') {
    mark = ARROW_MARKS.sameLine
    callIndent = inner
  } else if (/^\r?\n[ \t]*$/.test(gap)) {
    mark = ARROW_MARKS.nextLine
    callIndent = gap.replace(/^\r?\n/, '')
  } else {
    return {
      reason: 'the `=>` before runApp( is spaced in a way tapir cannot undo exactly: format the file (dart format) first',
      ensureInitialized,
    }
  }
  const end = semicolon ? semicolon.startIndex : last.endIndex
  const call = text.slice(first.startIndex, end)
  const insert = `{ ${mark}${eol}${addedLines(inner, ensureInitialized, eol)}${callIndent}${call};${eol}${base}}`
  return {edit: {start: arrow.startIndex, end: semicolon ? semicolon.endIndex : last.endIndex, insert}, ensureInitialized}
}

/** Each import goes where `directives_ordering` wants it: among the `package:` imports in
 *  alphabetical order (above the comment lines of the one it precedes), else after the `dart:`
 *  imports, else after the last directive, else before the first declaration. */
function importEdits(text: string, root: DartNode, uris: string[], eol: string): TextEdit[] | undefined {
  const imports = importsOf(root)
  const packages = imports.filter((directive) => directive.uri.startsWith('package:'))
  const dartLibraries = imports.filter((directive) => directive.uri.startsWith('dart:'))
  const edits = new Map<number, string[]>()
  for (const uri of uris) {
    const line = `${importLine(uri)} ${DART_MARK}`
    const before = packages.find((directive) => directive.uri > uri)
    let at: number | undefined
    if (before) {
      if (!startsItsLine(text, before.node.startIndex)) return undefined
      at = lineStart(text, commentsAbove(text, before.node).startIndex)
    } else {
      const after = packages.at(-1)?.node ?? dartLibraries.at(-1)?.node
      const anchor = after ? {after} : directiveAnchor(root)
      if (anchor && 'after' in anchor) at = afterLine(text, anchor.after)
      else if (anchor && startsItsLine(text, anchor.before.startIndex)) at = lineStart(text, commentsAbove(text, anchor.before).startIndex)
    }
    if (at === undefined) return undefined
    edits.set(at, [...(edits.get(at) ?? []), line])
  }
  return [...edits].map(([at, lines]) => {
    const block = lines.map((line) => `${line}${eol}`).join('')
    return at === text.length && !text.endsWith('\n')
      ? {start: at, end: at, insert: eol + block.slice(0, -eol.length)}
      : {start: at, end: at, insert: block}
  })
}

/** The start of the next line after a node and the comment that ends its line, or undefined
 *  when code follows it on that line. */
function afterLine(text: string, node: DartNode): number | undefined {
  let end = node.endIndex
  const trailing = node.nextSibling
  if (trailing && isComment(trailing) && !text.slice(end, trailing.startIndex).includes('\n')) end = trailing.endIndex
  return endsItsLine(text, end) ? nextLineStart(text, end) : undefined
}

/** The first of the comment lines right above a node (they belong to it), or the node itself.
 *  Comments that open the file are its header, not the node's: they stay on top. */
function commentsAbove(text: string, node: DartNode): DartNode {
  let first = node
  for (let previous = first.previousSibling; previous && isComment(previous); previous = previous.previousSibling) {
    const adjacent = nextLineStart(text, previous.endIndex) === lineStart(text, first.startIndex)
    if (!adjacent || !startsItsLine(text, previous.startIndex)) break
    first = previous
  }
  let opening: DartNode | null = first
  while (opening && isComment(opening)) opening = opening.previousSibling
  return opening === null && first.id !== node.id ? node : first
}

/** The patched file must parse, call TapirPlugin.install() in main, and turn back into the
 *  original bytes under uninstall; anything else means tapir would leave the file worse. */
async function checkPatched(original: string, patched: string, shown: string, missing: MissingParts): Promise<void> {
  const facts = await readMain(patched)
  const undone = await unpatchMain(patched, shown).catch(() => undefined)
  if (firstSyntaxError(facts.root) || facts.tapirCalls.length === 0 || undone?.text !== original)
    throw new ManualSteps(shown, 'tapir could not patch it in a way it can check and undo exactly', missing)
}
