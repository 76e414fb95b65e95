import {createRequire} from 'node:module'
import type {Node, Parser} from 'web-tree-sitter'
import {TapirError} from '../errors.js'

export type DartNode = Node

/** The Dart grammar, prebuilt as WebAssembly by an npm package: nothing is fetched at run time. */
const GRAMMAR = '@repomix/tree-sitter-wasms/out/tree-sitter-dart.wasm'

let parser: Promise<Parser> | undefined

/** web-tree-sitter and the grammar load on the first parse only: `tapir install`, `uninstall`
 *  and doctor's project check pay for them, no other command does. */
function loadParser(): Promise<Parser> {
  parser ??= (async () => {
    try {
      const {Parser, Language} = await import('web-tree-sitter')
      await Parser.init()
      const dart = await Language.load(createRequire(import.meta.url).resolve(GRAMMAR))
      return new Parser().setLanguage(dart)
    } catch (error) {
      throw new TapirError(
        `Cannot load the Dart parser (web-tree-sitter with ${GRAMMAR}): ${error instanceof Error ? error.message : String(error)}. Reinstall tapir.`,
        'local',
      )
    }
  })()
  return parser
}

/** The syntax tree of a Dart file; offsets are string indices into `text`. */
export async function parseDart(text: string): Promise<DartNode> {
  const tree = (await loadParser()).parse(text)
  if (!tree) throw new Error('the Dart parser returned no tree')
  return tree.rootNode
}

/** The first place the parser could not read, or undefined when the whole file parses. */
export function firstSyntaxError(root: DartNode): DartNode | undefined {
  if (!root.hasError) return undefined
  // Depth first without recursion: nesting in a file has no bound worth trusting.
  const pending: DartNode[] = [root]
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.isError || node.isMissing) return node
    const children = node.children.filter((child) => child.hasError || child.isMissing)
    pending.push(...children.reverse())
  }
  return root
}
