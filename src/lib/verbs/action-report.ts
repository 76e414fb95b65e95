import type {Input, Report, Result, Verb} from './types.js'

/** Side-effect verbs print one `✓` line, or the JSON envelope when the caller asked for a
 *  snapshot (that is where it lives). */
export function actionReport(summary: (result: Result, input: Input) => string): Pick<Verb, 'report' | 'prefersJson'> {
  return {
    report: (result, input): Report => ({stdout: `✓ ${summary(result, input)}`}),
    prefersJson: (input) => input.includeSnapshot === true || input.snapshot === 'full' || input.snapshot === 'diff',
  }
}
