import {TapirError, type Words} from '../errors.js'

/** An app's error that tapir explains from what it knows: the app's message stays as it was
 *  sent, and `fix` is what to make of it, worded for the surface (the output layer appends it). */
export abstract class ExplainedError extends TapirError {
  constructor(message: string, details: Record<string, unknown>) {
    super(message, 'app', details)
  }

  /** The explanation and the next step; `suggested` says whether suggestions follow it. */
  abstract fix(words: Words, suggested: boolean): string
}
