import {readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import ts from 'typescript'
import {describe, expect, it} from 'vitest'
import {VERBS} from '../../src/lib/verbs/index.js'
import {ROOT} from '../helpers/cli.js'

const PRODUCT = ['src/lib', 'src/cli', 'src/commands']
/** The calls that send `ext.tapir.<first argument>` (`AppConnection.callExtension`). */
const SENDERS = new Set(['callExtension'])
/** Where the method is not a literal: the catalogue's extension verbs (`ext.tapir.<verb>`, their
 *  `dispatch`, checked below). */
const DYNAMIC = new Set(['src/lib/verbs/extension-verb.ts'])

const tapir = (JSON.parse(readFileSync(join(ROOT, 'spec', 'tapir-extensions.json'), 'utf8')) as {extensions: Array<{name: string}>})
  .extensions
const NAMED = new Set(tapir.map((extension) => extension.name))

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), {withFileTypes: true}).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  )
}

interface Sent {
  file: string
  line: number
  name: string | undefined
  /** Where the scan could not read a literal: the argument, for the type checker. */
  at?: number
}

/** Every `ext.tapir.*` method a file names: each sender's first argument (a forwarder's callers'
 *  too, when the argument is the forwarder's own parameter), and every `ext.tapir.<name>` literal. */
function sentFrom(file: string): Sent[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true)
  const sent: Sent[] = []
  const senders = new Set(SENDERS)
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1
  const calleeName = (call: ts.CallExpression) => {
    const callee = call.expression
    return ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : undefined
  }
  // A method whose first parameter goes on as a sender's first argument is a sender too.
  const findForwarders = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && senders.has(calleeName(node) ?? '')) {
      const [first] = node.arguments
      if (first && ts.isIdentifier(first)) {
        let scope: ts.Node | undefined = node.parent
        while (scope && !ts.isFunctionLike(scope)) scope = scope.parent
        if (scope && ts.isFunctionLike(scope) && scope.parameters[0]?.name.getText() === first.text && scope.name)
          senders.add(scope.name.getText())
      }
    }
    ts.forEachChild(node, findForwarders)
  }
  findForwarders(source)
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && senders.has(calleeName(node) ?? '')) {
      const [first] = node.arguments
      if (first && ts.isStringLiteralLike(first)) sent.push({file, line: at(first), name: first.text})
      else if (first && (!ts.isIdentifier(first) || (!DYNAMIC.has(file) && !isForwarded(first))))
        sent.push({file, line: at(node), name: undefined, at: first.getStart()})
    }
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node)) {
      const match = /^ext\.tapir\.([a-z_]+)$/.exec(node.text)
      if (match) sent.push({file, line: at(node), name: match[1]})
    }
    ts.forEachChild(node, visit)
  }
  const isForwarded = (argument: ts.Identifier) => {
    let scope: ts.Node | undefined = argument.parent
    while (scope && !ts.isFunctionLike(scope)) scope = scope.parent
    return scope !== undefined && ts.isFunctionLike(scope) && scope.parameters[0]?.name.getText() === argument.text
  }
  visit(source)
  return sent
}

/** What the type checker says a method argument the scan could not read may be: each member of
 *  a union of string literals (`step.verb` narrowed to `'fill' | 'type'`), else unreadable. */
function typed(unread: Sent[]): Sent[] {
  if (unread.length === 0) return []
  const program = ts.createProgram({
    rootNames: [...new Set(unread.map((entry) => join(ROOT, entry.file)))],
    options: {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
    },
  })
  const checker = program.getTypeChecker()
  return unread.flatMap((entry): Sent[] => {
    const source = program.getSourceFile(join(ROOT, entry.file))
    const node = source && findAt(source, entry.at ?? -1)
    const type = node && checker.getTypeAtLocation(node)
    const members = type?.isUnion() ? type.types : type ? [type] : []
    if (members.length === 0 || !members.every((member) => member.isStringLiteral())) return [{...entry, name: undefined}]
    return members.map((member) => ({...entry, name: (member as ts.StringLiteralType).value}))
  })
}

function findAt(node: ts.Node, start: number): ts.Node | undefined {
  if (node.getStart() === start && ts.isExpression(node)) return node
  for (const child of node.getChildren()) {
    if (child.getStart() <= start && start < child.getEnd()) return findAt(child, start)
  }
  return undefined
}

describe('product code calls only the extensions the reference names', () => {
  const files = PRODUCT.flatMap(sourceFiles)
  const scanned = files.flatMap((file) => sentFrom(relative(ROOT, join(ROOT, file))))
  const sent = [...scanned.filter((entry) => entry.at === undefined), ...typed(scanned.filter((entry) => entry.at !== undefined))]

  it('finds the calls it checks (the scan is not blind)', () => {
    const names = new Set(sent.map((entry) => entry.name))
    for (const name of ['boot_id', 'semantics_hold', 'find_by_text', 'observe', 'perf_trace', 'fill', 'type']) expect(names).toContain(name)
  })

  it('sends no ext.tapir.* method outside spec/tapir-extensions.json, and none it cannot name', () => {
    const outside = sent.filter((entry) => entry.name === undefined || !NAMED.has(entry.name))
    expect(outside.map(({file, line, name}) => `${file}:${line} ${name ?? '(a method the scan cannot read)'}`)).toEqual([])
  })

  it('dispatches every catalogue verb that the app answers to a listed extension', () => {
    for (const verb of VERBS)
      if (verb.dispatch.startsWith('ext.tapir.')) expect(NAMED.has(verb.dispatch.slice('ext.tapir.'.length)), verb.name).toBe(true)
  })
})
