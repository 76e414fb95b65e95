import {envValue, interpolate} from '../perf/interpolate.js'

/** A step's words with `${env.NAME}` read from the environment and `$$` as `$`, as a perf
 *  scenario reads its values (the same code); what came from the environment is secret. */
export function interpolateWords(
  words: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): {words: string[]; secrets: string[]; problems: string[]; envWords: Array<[given: string, written: string]>} {
  const problems: string[] = []
  const secrets: string[] = []
  const envWords: Array<[string, string]> = []
  const scope = {params: new Map(), env}
  const out = words.map((word) => {
    if (!word.includes('$')) return word
    const value = interpolate(word, scope, (problem) => problems.push(problem))
    for (const [, name] of word.matchAll(/\$\{\s*env\.([^}]*?)\s*\}/g)) {
      const secret = envValue(env, name)
      if (secret) secrets.push(secret)
    }
    if (/\$\{\s*env\./.test(word)) envWords.push([value.text, word])
    return value.text
  })
  return {words: out, secrets, problems, envWords}
}
