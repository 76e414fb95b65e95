import {terminalSafe} from '../output/terminal-safe.js'

/** Step lines as `tapir:run` reads them back (run/tokenize.ts, then `${env.NAME}` and `$$`). */

/** One flag of a step: its name, its value, and whether the value is a template as a tapir:run
 *  step wrote it (`${env.NAME}` kept, `$$` already doubled). */
export type Flag = readonly [string, string | number | boolean | readonly string[], boolean?]

/** Words a shell (and the step tokenizer) reads as they are. */
const BARE = /^[A-Za-z0-9_@%+=:,./-]+$/

/** One value as a step word: bare when safe, else single-quoted; every `$` doubled so it is not
 *  read as `${env.…}`. A value holding a line break cannot be one step line. */
export function quoteWord(value: string): string {
  if (/[\r\n]/.test(value)) throw new Error('a line break cannot be written in a step line')
  const escaped = value.replaceAll('$', '$$$$')
  if (escaped !== '' && BARE.test(escaped)) return escaped
  return `'${escaped.replaceAll("'", `'\\''`)}'`
}

/** A word as a tapir:run step wrote it (`${env.NAME}` and `$$` in it are kept): bare when it is
 *  only safe characters and placeholders, else single-quoted (read after the split, as bare). */
export function quoteTemplate(written: string): string {
  if (/[\r\n]/.test(written)) throw new Error('a line break cannot be written in a step line')
  if (/^(?:[A-Za-z0-9_@%+=:,./-]|\$\$|\$\{env\.[A-Za-z0-9_]+\})+$/.test(written)) return written
  return `'${written.replaceAll("'", `'\\''`)}'`
}

/** A flag word: `--name=value`, the value quoted as it needs; a template (`${env.NAME}`) kept as written. */
export function flagWord(name: string, value: string | number | boolean | readonly string[], template = false): string {
  if (value === true) return `--${name}`
  if (value === false) return `--no-${name}`
  const text = Array.isArray(value) ? value.join(',') : String(value)
  return `--${name}=${template ? quoteTemplate(text) : quoteWord(text)}`
}

/** A step line: the verb, then its flags in the order given. */
export function stepLine(verb: string, flags: readonly Flag[]): string {
  return [verb, ...flags.map(([name, value, template]) => flagWord(name, value, template === true))].join(' ')
}

/** A comment line: one line, whatever the text held, and terminal-safe (a label from the app may
 *  hold ESC or BEL; `cat` of the file must not run them). */
export function comment(text: string): string {
  return `# ${terminalSafe(text.replace(/[\r\n]+/g, ' '), true)}`
}

/** The environment variable a secret typed into `field` is read from at replay. */
export function secretVariable(field: string): string {
  const name = field
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
  return `TAPIR_SECRET_${name || 'FIELD'}`
}

/** A name to bind a found handle to, from its label: `Sign in` → `sign_in`, unique in the file. */
export function bindingName(label: string, taken: ReadonlySet<string>): string {
  const base =
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 32) || 'widget'
  const start = /^[a-z_]/.test(base) ? base : `w_${base}`
  if (!taken.has(start)) return start
  for (let n = 2; ; n++) if (!taken.has(`${start}_${n}`)) return `${start}_${n}`
}
