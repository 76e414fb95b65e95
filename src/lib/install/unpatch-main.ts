import {TapirError} from '../errors.js'
import {callsOf, isComment} from './dart-main.js'
import type {DartNode} from './dart-parser.js'
import {firstSyntaxError, parseDart} from './dart-parser.js'
import {ARROW_MARKS, DART_MARK} from './markers.js'
import type {TextEdit} from './text-edits.js'
import {applyEdits, endsItsLine, indentationAt, lineEnding, position, removeLines, startsItsLine} from './text-edits.js'

export interface MainUnpatch {
  text: string
  /** What was taken out, for the summary line. */
  removed: string[]
  /** What stays although tapir install may have put it there, and why. */
  kept: string[]
}

const refusal = (shown: string, reason: string): TapirError =>
  new TapirError(
    `Cannot undo tapir install in ${shown} safely: ${reason}. Nothing was written; remove the lines that end with \`${DART_MARK}\` by hand.`,
    'local',
  )

const sameLine = (text: string, from: number, to: number): boolean => !text.slice(from, to).includes('\n')

/** main.dart without the lines `tapir install` added (those carrying its mark), and with an
 *  arrow body it turned into a block turned back. */
export async function unpatchMain(text: string, shown: string): Promise<MainUnpatch> {
  if (![DART_MARK, ARROW_MARKS.sameLine].some((mark) => text.includes(mark))) return {text, removed: [], kept: []}
  const root = await parseDart(text)
  const broken = firstSyntaxError(root)
  if (broken) throw refusal(shown, `it does not parse as Dart (line ${position(text, broken.startIndex).line})`)
  // A line comment of a CRLF file ends with its \r.
  const comments = root.descendantsOfType('comment').map((node) => ({node, text: node.text.trimEnd()}))
  const edits: TextEdit[] = []
  const removed = new Set<string>()
  const kept: string[] = []
  for (const {node: comment} of comments.filter(({text}) => text === DART_MARK)) {
    const line = position(text, comment.startIndex).line
    const target = comment.previousNamedSibling
    if (!target || isComment(target) || !sameLine(text, target.endIndex, comment.startIndex) || !startsItsLine(text, target.startIndex))
      throw refusal(shown, `the mark on line ${line} does not follow a line tapir install adds`)
    if (!endsItsLine(text, comment.endIndex)) throw refusal(shown, `line ${line} goes on after the mark`)
    if (target.type === 'import_or_export') {
      edits.push(removeLines(text, target.startIndex, comment.endIndex))
      removed.add(`import of ${target.descendantsOfType('string_literal')[0]?.text.slice(1, -1) ?? 'a library'}`)
    } else if (target.type === 'expression_statement' && callsOf(target, 'install', 'TapirPlugin').length > 0) {
      const guard = wholeGuard(text, target)
      edits.push(guard ? removeLines(text, guard.startIndex, guard.endIndex) : removeLines(text, target.startIndex, comment.endIndex))
      removed.add('TapirPlugin.install()')
    } else if (target.type === 'expression_statement' && callsOf(target, 'ensureInitialized').length > 0) {
      edits.push(removeLines(text, target.startIndex, comment.endIndex))
      removed.add('WidgetsFlutterBinding.ensureInitialized()')
    } else {
      throw refusal(shown, `the mark on line ${line} follows something tapir install does not add`)
    }
  }
  for (const {node: comment, text: mark} of comments.filter(({text}) => text === ARROW_MARKS.sameLine || text === ARROW_MARKS.nextLine)) {
    const restored = arrowBack(text, comment, mark, edits)
    if (restored) {
      const outside = edits.filter((edit) => !(edit.start >= restored.start && edit.end <= restored.end))
      edits.splice(0, edits.length, ...outside, restored)
      removed.add('the block body it made of `=>`')
    } else {
      edits.push({
        start: text[comment.startIndex - 1] === ' ' ? comment.startIndex - 1 : comment.startIndex,
        end: comment.startIndex + mark.length,
        insert: '',
      })
      kept.push(
        `the block body of the function on line ${position(text, comment.startIndex).line} (it holds more than the call it was made for)`,
      )
    }
  }
  const result = applyEdits(text, edits)
  if (edits.length > 0 && firstSyntaxError(await parseDart(result))) throw refusal(shown, 'the file would not parse without those lines')
  return {text: result, removed: [...removed], kept}
}

/** The `if (!kReleaseMode) { TapirPlugin.install(); }` around the call, when it holds nothing else. */
function wholeGuard(text: string, statement: DartNode): DartNode | undefined {
  const block = statement.parent
  const guard = block?.parent
  if (block?.type !== 'block' || guard?.type !== 'if_statement' || guard.childForFieldName('consequence')?.id !== block.id) return undefined
  if (guard.childForFieldName('alternative')) return undefined
  const condition = guard.namedChildren[0]
  if (condition?.text.replace(/\s+/g, '') !== '!kReleaseMode') return undefined
  const statements = block.namedChildren.filter((child) => !isComment(child))
  if (statements.length !== 1) return undefined
  if (block.namedChildren.some((child) => isComment(child) && child.text.trimEnd() !== DART_MARK)) return undefined
  return startsItsLine(text, guard.startIndex) && endsItsLine(text, guard.endIndex) ? guard : undefined
}

/** The edit turning a marked block back into the arrow it was, when all it holds besides the
 *  lines being removed is the one call. */
function arrowBack(text: string, mark: DartNode, markText: string, removals: readonly TextEdit[]): TextEdit | undefined {
  const block = mark.parent
  const body = block?.parent
  if (block?.type !== 'block' || (body?.type !== 'function_body' && body?.type !== 'function_expression_body')) return undefined
  if (!sameLine(text, block.startIndex, mark.startIndex) || block.firstChild?.type !== '{') return undefined
  const removedSpan = (node: DartNode) => removals.some((edit) => edit.start <= node.startIndex && node.endIndex <= edit.end)
  const left = block.namedChildren.filter((child) => child.id !== mark.id && !removedSpan(child))
  const [call] = left
  if (left.length !== 1 || call?.type !== 'expression_statement' || call.lastChild?.type !== ';') return undefined
  const expression = text.slice(call.startIndex, call.lastChild.startIndex)
  const gap = markText === ARROW_MARKS.nextLine ? `${lineEnding(text)}${indentationAt(text, call.startIndex)}` : ' '
  const ending = body.type === 'function_body' ? ';' : ''
  return {start: block.startIndex, end: block.endIndex, insert: `=>${gap}${expression}${ending}`}
}
