import {ExtensionError} from '../app-contract.js'

/** Dusk 0.0.1's error: `{message, envelope}` as JSON text in `data.details`, as its handlers wrap it. */
export function duskError(message: string, type: string): ExtensionError {
  return new ExtensionError(-32000, JSON.stringify({message, envelope: {type, suggestions: []}}))
}

/** A Dusk 0.0.1 handler's view of its params: only the names 0.0.1 reads, each a string. */
export class DuskParams {
  constructor(
    readonly method: string,
    private readonly raw: Readonly<Record<string, string>>,
  ) {}

  optional(name: string): string | undefined {
    const value = this.raw[name]
    return value === undefined || value === '' ? undefined : value
  }

  required(name: string): string {
    const value = this.optional(name)
    if (value === undefined) throw duskError(`[fluttersdk_dusk] ext.dusk.${this.method}: missing required param "${name}"`, 'missing_param')
    return value
  }

  /** The params to hand on under the same names, those that were given. */
  pick(...names: string[]): Record<string, string> {
    const picked: Record<string, string> = {}
    for (const name of names) if (this.raw[name] !== undefined) picked[name] = this.raw[name]
    return picked
  }

  int(name: string, fallback: number): number {
    const value = this.optional(name)
    return value !== undefined && /^[+-]?\d+$/.test(value) ? Number(value) : fallback
  }
}
