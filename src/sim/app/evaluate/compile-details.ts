import type {CompileError} from './lexer.js'

const SYNTHETIC_SOURCE = 'org-dartlang-debug:synthetic_debug_expression'

/** The front end's report: location, message, the source line and a caret under the culprit. */
export function compileDetails(expression: string, error: CompileError): string {
  const [first, ...rest] = error.message.split('\n')
  return [
    `${SYNTHETIC_SOURCE}:1:${error.column}: Error: ${first}`,
    ...rest,
    expression,
    `${' '.repeat(error.column - 1)}${'^'.repeat(error.length)}`,
  ].join('\n')
}
