import {parse} from 'shell-quote'
import {UsageError} from '../errors.js'

/** Shell syntax outside quotes that tapir refuses rather than pretend to honour. */
function refuseExpansions(line: string): void {
  let quote: '"' | "'" | undefined
  for (let i = 0; i < line.length; i++) {
    const char = line[i]
    if (quote === "'") {
      if (char === "'") quote = undefined
      continue
    }
    if (char === '\\') {
      i++
      continue
    }
    if (char === quote) quote = undefined
    else if (!quote && (char === '"' || char === "'")) quote = char
    else if (char === '`' || (char === '$' && line[i + 1] === '(')) throw new UsageError(`command substitution (${char === '`' ? '`…`' : '$(…)'}) is not allowed; steps never reach a shell.`)
    else if (!quote && char === '~' && (i === 0 || /\s/.test(line[i - 1]!))) throw new UsageError('"~" is not expanded; write the path out, or quote it.')
  }
}

/**
 * Splits a step line the way a shell splits words (quotes, backslash escapes) and refuses
 * everything else a shell would do: operators, globs, $VAR expansion, command substitution.
 */
export function tokenizeStep(line: string): string[] {
  refuseExpansions(line)
  const variables: string[] = []
  const tokens = parse(line, (name: string) => {
    variables.push(name)
    return ''
  })
  if (variables.length > 0) throw new UsageError(`$${variables[0]} would be expanded by a shell; tapir does not expand variables. Put the value itself in the step, or single-quote it.`)
  const words: string[] = []
  for (const token of tokens) {
    if (typeof token === 'string') words.push(token)
    else if ('comment' in token) break
    else if ('op' in token && token.op === 'glob') throw new UsageError(`unquoted glob "${(token as {pattern: string}).pattern}": quote it; tapir never expands globs.`)
    else if ('op' in token) throw new UsageError(`shell operator "${token.op}" is not allowed; give each command as its own step.`)
  }
  return words
}
