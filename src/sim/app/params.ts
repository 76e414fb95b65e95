import {missingParam} from './errors.js'

/** A handler's view of its params: every value is a string, as the VM hands them over. */
export class Params {
  /** The refs this call resolved, in order: the first successful call through a relocated ref reports it. */
  readonly resolvedRefs: string[] = []

  constructor(
    readonly verb: string,
    protected readonly raw: Readonly<Record<string, string>>,
  ) {}

  /** A non-empty value, or undefined. */
  optional(name: string): string | undefined {
    const value = this.raw[name]
    return value === undefined || value === '' ? undefined : value
  }

  /** A non-empty value, else a missing_param error. */
  required(name: string): string {
    const value = this.optional(name)
    if (value === undefined) throw this.missing(name)
    return value
  }

  /** The error for a param that was not sent. */
  protected missing(name: string): Error {
    return missingParam(this.verb, name)
  }

  /** A value that must be sent but may be empty (fill's `text`). */
  present(name: string): string {
    const value = this.raw[name]
    if (value === undefined) throw this.missing(name)
    return value
  }

  /** Missing or empty: the default; otherwise anything but "false" or "0" is true. */
  bool(name: string, fallback: boolean): boolean {
    const value = this.optional(name)
    return value === undefined ? fallback : value !== 'false' && value !== '0'
  }

  /** Decimal integer text (Dart's int.tryParse); anything else gives the default. */
  int(name: string, fallback: number): number
  int(name: string): number | undefined
  int(name: string, fallback?: number): number | undefined {
    const value = this.optional(name)
    return value !== undefined && /^[+-]?\d+$/.test(value) ? Number(value) : fallback
  }
}
