import {Params} from '../app/params.js'
import {ExtensionError} from '../app-contract.js'

/** Dusk 0.0.1's error: `{message, envelope}` as JSON text in `data.details`, as its handlers wrap it. */
export function duskError(message: string, type: string): ExtensionError {
  return new ExtensionError(-32000, JSON.stringify({message, envelope: {type, suggestions: []}}))
}

/** A Dusk 0.0.1 handler's view of its params: only the names 0.0.1 reads, each a string, and
 *  0.0.1's error for one that is missing. */
export class DuskParams extends Params {
  protected override missing(name: string): ExtensionError {
    return duskError(`[fluttersdk_dusk] ext.dusk.${this.verb}: missing required param "${name}"`, 'missing_param')
  }

  /** Whether the param was sent at all (Dart's `params[name] != null`), empty or not. */
  given(name: string): boolean {
    return this.raw[name] !== undefined
  }

  /** Dart's `double.tryParse(params[name] ?? '') ?? 0.0`. */
  double(name: string): number {
    const text = this.raw[name]?.trim() ?? ''
    return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : 0
  }

  /** The params to hand on under the same names, those that were given. */
  pick(...names: string[]): Record<string, string> {
    const picked: Record<string, string> = {}
    for (const name of names) if (this.raw[name] !== undefined) picked[name] = this.raw[name]
    return picked
  }
}
