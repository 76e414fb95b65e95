import type {DartNode} from './dart-parser.js'

/** The top-level `main` of a Dart file: its signature and its body (siblings in the tree). */
export interface MainFunction {
  signature: DartNode
  body: DartNode
}

const isComment = (node: DartNode | null): boolean => node?.type === 'comment'

function nextElement(node: DartNode): DartNode | null {
  let next = node.nextNamedSibling
  while (next && isComment(next)) next = next.nextNamedSibling
  return next
}

function previousElement(node: DartNode): DartNode | null {
  let previous = node.previousNamedSibling
  while (previous && isComment(previous)) previous = previous.previousNamedSibling
  return previous
}

export function findMain(root: DartNode): MainFunction | undefined {
  for (const node of root.namedChildren) {
    if (node.type !== 'function_signature' || node.childForFieldName('name')?.text !== 'main') continue
    const body = nextElement(node)
    if (body?.type === 'function_body') return {signature: node, body}
  }
  return undefined
}

/** In the tree, `a.b.c(x)` is a run of siblings: the identifier `a`, a selector `.b`, a selector
 *  `.c`, a selector `(x)`. The element a name stands in is the identifier itself, or the selector
 *  that holds `.name`. */
function chainElement(name: DartNode): DartNode | undefined {
  const holder = name.parent
  if (holder?.type === 'unconditional_assignable_selector' || holder?.type === 'conditional_assignable_selector')
    return holder.parent?.type === 'selector' ? holder.parent : undefined
  return name
}

function elementName(element: DartNode | null): string | undefined {
  if (element?.type === 'identifier') return element.text
  if (element?.type !== 'selector') return undefined
  const member = element.firstNamedChild
  return member?.type.endsWith('assignable_selector') ? (member.childForFieldName('name') ?? member.firstNamedChild)?.text : undefined
}

const isArguments = (element: DartNode | null): boolean => element?.type === 'selector' && element.firstNamedChild?.type === 'argument_part'

/** A call of `name(…)` or `receiver.name(…)`. */
export interface Call {
  /** The identifier `name`. */
  name: DartNode
  /** The first element of the call: the receiver when there is one, else the name. */
  first: DartNode
  /** The selector holding the arguments: the call ends there. */
  arguments: DartNode
}

/** Every call of `name` in `scope`, in source order; with `receiver`, only `receiver.name(…)`. */
export function callsOf(scope: DartNode, name: string, receiver?: string): Call[] {
  const calls: Call[] = []
  for (const identifier of scope.descendantsOfType('identifier')) {
    if (identifier.text !== name) continue
    const element = chainElement(identifier)
    if (!element) continue
    const args = nextElement(element)
    if (!args || !isArguments(args)) continue
    const before = element.type === 'selector' ? previousElement(element) : null
    if (receiver !== undefined && elementName(before) !== receiver) continue
    calls.push({name: identifier, first: receiver !== undefined && before ? before : element, arguments: args})
  }
  return calls.sort((a, b) => a.name.startIndex - b.name.startIndex)
}

/** The body of the function a node runs in: a `function_body` or a closure's body. */
export function enclosingBody(node: DartNode): DartNode | undefined {
  for (let at = node.parent; at; at = at.parent) if (at.type === 'function_body' || at.type === 'function_expression_body') return at
  return undefined
}

/** An import directive: its URI, prefix and combinators. */
export interface ImportDirective {
  node: DartNode
  uri: string
  prefix: string | undefined
  combinators: Array<{kind: 'show' | 'hide'; names: string[]}>
}

export function importsOf(root: DartNode): ImportDirective[] {
  const imports: ImportDirective[] = []
  for (const directive of root.namedChildren) {
    if (directive.type !== 'import_or_export') continue
    const specification = directive.descendantsOfType('import_specification')[0]
    if (!specification) continue
    const literal = specification.descendantsOfType('string_literal')[0]
    const children = specification.children
    const as = children.findIndex((child) => child.type === 'as')
    imports.push({
      node: directive,
      uri: literal ? literal.text.slice(1, -1) : '',
      prefix: as === -1 ? undefined : children[as + 1]?.text,
      combinators: specification.namedChildren
        .filter((child) => child.type === 'combinator')
        .map((combinator) => ({
          kind: combinator.firstChild?.type === 'hide' ? 'hide' : 'show',
          names: combinator.namedChildren.filter((child) => child.type === 'identifier').map((child) => child.text),
        })),
    })
  }
  return imports
}

/** Whether `name` from the library at `uri` can be used unprefixed. */
export function imported(imports: readonly ImportDirective[], uri: string, name: string): boolean {
  return imports.some(
    (directive) =>
      directive.uri === uri &&
      directive.prefix === undefined &&
      directive.combinators.every((combinator) => combinator.names.includes(name) === (combinator.kind === 'show')),
  )
}

/** Where new imports go: after the last directive that must precede them, or before the first
 *  declaration when the file has none. */
export function directiveAnchor(root: DartNode): {after: DartNode} | {before: DartNode} | undefined {
  const directives = root.namedChildren.filter((node) => ['import_or_export', 'library_name', 'script_tag'].includes(node.type))
  const last = directives.at(-1)
  if (last) return {after: last}
  const first = root.namedChildren.find((node) => !isComment(node))
  return first ? {before: first} : undefined
}

export {isComment, nextElement, previousElement}
