import {parse} from 'shell-quote'
import {UsageError} from '../errors.js'

const GLOB = new Set(['*', '?', '['])
const NAME_START = /[A-Za-z_0-9{(@*#?$!-]/

/**
 * Walks the line as a POSIX shell reads it (quotes, backslashes, word starts) and either refuses
 * what tapir will not do (expansions, globs, substitutions, unterminated quotes) or rewrites the
 * few spots where shell-quote reads a line differently from a shell, into an equivalent it reads
 * the same way: a `#` inside a word, a lone `$`, an escaped glob character.
 */
function normalise(line: string): string {
  let out = ''
  let quote: '"' | "'" | undefined
  let wordStart = true
  for (let i = 0; i < line.length; i++) {
    const char = line[i]
    const next = line[i + 1]
    if (quote === "'") {
      if (char === "'") quote = undefined
      out += char
      continue
    }
    if (char === '`' || (char === '$' && next === '('))
      throw new UsageError(`command substitution (${char === '`' ? '`…`' : '$(…)'}) is not allowed; steps never reach a shell.`)
    if (char === '$') {
      // tapir's own `${env.NAME}` and `$$`, read after the split (run/step-env.ts), pass as text
      const own = /^\$(\$|\{env\.[^}]*\})/.exec(line.slice(i))?.[0]
      if (own) {
        out += own.replaceAll('$', '\\$')
        i += own.length - 1
        wordStart = false
        continue
      }
      if (next !== undefined && NAME_START.test(next)) {
        const name = /^\{?([A-Za-z_][A-Za-z0-9_]*)/.exec(line.slice(i + 1))?.[1] ?? next
        throw new UsageError(
          `$${name} would be expanded by a shell; tapir does not expand variables. Put the value itself in the step, or single-quote it.`,
        )
      }
      out += '\\$' // a lone $ is literal, as in a shell
      wordStart = false
      continue
    }
    if (char === '\\') {
      if (next === undefined) throw new UsageError('the step ends with a lone backslash.')
      // shell-quote reads these escapes differently from a shell: hand it the quoted equivalent
      if (GLOB.has(next) && !quote) out += `'${next}'`
      else if (next === '`' && quote === '"') out += `"'\`'"`
      else out += char + next
      i++
      wordStart = false
      continue
    }
    if (quote === '"') {
      if (char === '"') quote = undefined
      out += char
      continue
    }
    if (char === '"' || char === "'") {
      quote = char
      out += char
      wordStart = false
      continue
    }
    if (/\s/.test(char)) {
      out += char
      wordStart = true
      continue
    }
    if (char === '#') {
      if (wordStart) break // a comment runs to the end of the line
      out += '\\#'
      continue
    }
    if (GLOB.has(char)) throw new UsageError(`unquoted glob character "${char}": quote it; tapir never expands globs.`)
    if (char === '{' && /^\{[^\s{}]*(,|\.\.)[^\s{}]*\}/.test(line.slice(i)))
      throw new UsageError('brace expansion ({a,b}) is not done; quote the braces.')
    if (char === '~' && wordStart) throw new UsageError('"~" is not expanded; write the path out, or quote it.')
    out += char
    wordStart = /[;&|<>()]/.test(char)
  }
  if (quote) throw new UsageError(`unterminated ${quote === '"' ? 'double' : 'single'} quote.`)
  return out
}

/**
 * Splits a step line the way a shell splits words (quotes, backslash escapes) and refuses
 * everything else a shell would do: operators, globs, $VAR expansion, command substitution.
 */
export function tokenizeStep(line: string): string[] {
  const words: string[] = []
  for (const token of parse(normalise(line))) {
    if (typeof token === 'string') words.push(token)
    else if ('op' in token && token.op !== 'glob')
      throw new UsageError(`shell operator "${token.op}" is not allowed; give each command as its own step.`)
    else throw new UsageError('the step has shell syntax tapir does not take; quote it.')
  }
  return words
}
