import {isDeepStrictEqual} from 'node:util'
import type {Document, Pair, Range} from 'yaml'
import {isMap, isNode, isScalar, parseDocument} from 'yaml'
import {TapirError} from '../errors.js'
import {isJsonObject} from '../shape.js'
import {TAPIR_CONSTRAINT, YAML_MARK} from './markers.js'
import {applyEdits, lineEnding, lineStart, nextLineStart, removeLines, startsItsLine} from './text-edits.js'

const SECTIONS = ['dependencies', 'dev_dependencies'] as const
type Section = (typeof SECTIONS)[number]

/** tapir as a pubspec lists it. */
export interface TapirEntry {
  section: Section
  /** `^1.0.0`, or what kind of source it names (a path, git). */
  constraint: string
  /** Whether `tapir install` wrote it (its line carries the mark). */
  added: boolean
  pair: Pair
}

export interface PubspecFacts {
  document: Document
  tapir: TapirEntry | undefined
  dependsOnFlutter: boolean
}

const notEdited = (shown: string, reason: string): TapirError => new TapirError(`${shown}: ${reason}. Nothing was written.`, 'local')

const keyOf = (pair: Pair): unknown => (isScalar(pair.key) ? pair.key.value : pair.key)

/** Where a node of the document lies in the text, when it is a node the parser placed. */
const rangeOf = (node: unknown): Range | undefined => (isNode(node) ? (node.range ?? undefined) : undefined)

/** Reads a pubspec through the yaml package's document API: the document keeps every node's
 *  place in the text, which is what the edits below are made from. */
export function readPubspec(text: string, shown: string): PubspecFacts {
  const document = parseDocument(text, {uniqueKeys: true})
  const error = document.errors[0]
  if (error) throw notEdited(shown, `it is not valid YAML (line ${error.linePos?.[0].line ?? '?'}): ${error.message.split('\n')[0]}`)
  if (!isMap(document.contents)) throw notEdited(shown, 'it does not hold a YAML mapping, as a pubspec does')
  let tapir: TapirEntry | undefined
  for (const section of SECTIONS) {
    const map = document.get(section, true)
    if (!isMap(map)) continue
    const pair = map.items.find((item) => keyOf(item) === 'tapir')
    if (!pair || tapir) continue
    const value = pair.value
    const constraint = isScalar(value)
      ? String(value.value ?? 'any')
      : isMap(value)
        ? `a ${String(value.items.map(keyOf).find((key) => ['path', 'git', 'hosted', 'sdk'].includes(String(key))) ?? 'custom')} source`
        : 'any'
    tapir = {section, constraint, added: isScalar(value) && `#${value.comment ?? ''}` === YAML_MARK, pair}
  }
  const dependencies = document.get('dependencies', true)
  if (
    isMap(dependencies) &&
    !dependencies.items.some((item) => keyOf(item) === 'flutter') &&
    dependencies.items.some((item) => keyOf(item) === '<<')
  )
    throw notEdited(
      shown,
      "its dependencies take flutter from a YAML merge key (<<), which pub does not read (Dart's yaml package has no merge keys): list flutter under dependencies itself",
    )
  plainValue(document, shown)
  return {document, tapir, dependsOnFlutter: isMap(dependencies) && dependencies.items.some((item) => keyOf(item) === 'flutter')}
}

/** The document as plain data; a document whose aliases expand beyond reason (an alias bomb)
 *  is refused rather than expanded. */
function plainValue(document: Document, shown: string): unknown {
  try {
    return document.toJS({maxAliasCount: 100})
  } catch (error) {
    throw notEdited(shown, `it is not a pubspec tapir can read (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`)
  }
}

export type PubspecAdd = {kind: 'present'; entry: TapirEntry} | {kind: 'added'; text: string}

/** Adds `tapir: ^1.0.0` as the last entry under `dependencies`, on a line of its own with the
 *  entries' indentation; the rest of the file keeps every byte. */
export function addTapir(text: string, shown: string): PubspecAdd {
  const facts = readPubspec(text, shown)
  if (facts.tapir) return {kind: 'present', entry: facts.tapir}
  if (!facts.dependsOnFlutter)
    throw new TapirError(
      `${shown} does not list flutter under dependencies: tapir install sets up a Flutter app. Run it in the app's folder, or pass --project=<the app's folder>.`,
      'usage',
    )
  const dependencies = facts.document.get('dependencies', true)
  if (!isMap(dependencies) || dependencies.flow)
    throw notEdited(
      shown,
      `its dependencies are not a block mapping tapir can add a line to; add \`tapir: ${TAPIR_CONSTRAINT}\` under them by hand`,
    )
  const first = dependencies.items.at(0)
  const last = dependencies.items.at(-1)
  const keyStart = (pair: Pair) => rangeOf(pair.key)?.[0] ?? -1
  const valueEnd = (pair: Pair) => rangeOf(pair.value)?.[1] ?? keyStart(pair)
  if (!first || !last || !startsItsLine(text, keyStart(first)))
    throw notEdited(shown, 'tapir cannot tell how its dependencies are indented')
  const indent = text.slice(lineStart(text, keyStart(first)), keyStart(first))
  const eol = lineEnding(text)
  const line = `${indent}tapir: ${TAPIR_CONSTRAINT} ${YAML_MARK}`
  const end = valueEnd(last)
  // A block scalar's range takes in its last line break.
  const at = text[end - 1] === '\n' ? end : nextLineStart(text, end)
  const insert = at === text.length && !text.endsWith('\n') ? `${eol}${line}` : `${line}${eol}`
  const patched = applyEdits(text, [{start: at, end: at, insert}])
  const check = readPubspec(patched, shown)
  const undone = removeTapir(patched, shown)
  if (check.tapir?.section !== 'dependencies' || !check.tapir.added || undone.kind !== 'removed' || undone.text !== text)
    throw notEdited(
      shown,
      `tapir could not add itself in a way it can check and undo exactly; add \`tapir: ${TAPIR_CONSTRAINT}\` under dependencies by hand`,
    )
  return {kind: 'added', text: patched}
}

export type PubspecRemove = {kind: 'removed'; text: string} | {kind: 'absent'} | {kind: 'not-added'; entry: TapirEntry}

/** Removes the tapir line `tapir install` added, and nothing else. */
export function removeTapir(text: string, shown: string): PubspecRemove {
  const facts = readPubspec(text, shown)
  const entry = facts.tapir
  if (!entry) return {kind: 'absent'}
  if (!entry.added || entry.section !== 'dependencies') return {kind: 'not-added', entry}
  const key = rangeOf(entry.pair.key)
  const value = rangeOf(entry.pair.value)
  if (!key || !value || !startsItsLine(text, key[0]))
    throw notEdited(shown, 'the tapir line shares its line with another entry; remove it by hand')
  const result = applyEdits(text, [removeLines(text, key[0], value[1])])
  const before: unknown = plainValue(facts.document, shown)
  if (!isJsonObject(before) || !isJsonObject(before.dependencies)) throw notEdited(shown, 'its dependencies are not a mapping')
  const {tapir: _tapir, ...others} = before.dependencies
  const after = plainValue(readPubspec(result, shown).document, shown)
  if (!isDeepStrictEqual(after, {...before, dependencies: others}))
    throw notEdited(shown, 'removing the tapir line would change more than that entry; remove it by hand')
  return {kind: 'removed', text: result}
}
