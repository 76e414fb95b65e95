import type {Value} from './scenario-types.js'

export interface Param {
  text: string
  secret: boolean
  unresolved?: boolean
}

export interface Scope {
  params: ReadonlyMap<string, Param>
  env: Readonly<Record<string, string | undefined>>
}

/** A variable the environment holds as its own key: `constructor`, `__proto__` or `toString`
 *  are what every object inherits, not variables anyone set. */
export function envValue(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  return Object.hasOwn(env, name) ? env[name] : undefined
}

/** `${name}` (a fragment param), `${env.NAME}` and `$$` (a literal `$`); anything from the
 *  environment or a secret param makes the value a secret. Problems go to `problem`. */
export function interpolate(raw: string, scope: Scope, problem: (text: string) => void): Value {
  let text = ''
  let secret = false
  let unresolved = false
  let at = 0
  while (at < raw.length) {
    const dollar = raw.indexOf('$', at)
    if (dollar < 0) {
      text += raw.slice(at)
      break
    }
    text += raw.slice(at, dollar)
    if (raw[dollar + 1] === '$') {
      text += '$'
      at = dollar + 2
      continue
    }
    if (raw[dollar + 1] !== '{') {
      text += '$'
      at = dollar + 1
      continue
    }
    const close = raw.indexOf('}', dollar + 2)
    if (close < 0) {
      problem(`unclosed \${ in ${JSON.stringify(raw)} (write $$ for a literal $)`)
      return {text: raw, secret, unresolved: true}
    }
    const name = raw.slice(dollar + 2, close).trim()
    at = close + 1
    if (name.startsWith('env.')) {
      const variable = name.slice(4)
      const value = envValue(scope.env, variable)
      secret = true
      if (value === undefined) {
        problem(`environment variable ${variable} is not set (\${env.${variable}})`)
        unresolved = true
      } else text += value
      continue
    }
    const param = scope.params.get(name)
    if (!param) {
      problem(
        `unknown parameter \${${name}}${scope.params.size > 0 ? ` (this fragment takes ${[...scope.params.keys()].join(', ')})` : ' (only a fragment has params)'}`,
      )
      unresolved = true
      continue
    }
    text += param.text
    secret ||= param.secret
    unresolved ||= param.unresolved === true
  }
  return unresolved ? {text, secret, unresolved} : {text, secret}
}
