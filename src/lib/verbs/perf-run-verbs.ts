import {compareRuns, hasErrorRegression, type Comparison} from '../perf/compare.js'
import {COMPARE_USAGE, readRun} from '../perf/compare-input.js'
import {renderComparison} from '../perf/compare-table.js'
import {EXIT} from '../output/exit-codes.js'
import type {Result, Verb} from './types.js'

export const perfCompare: Verb = {
  name: 'perf_compare',
  tool: 'tapir_perf_compare',
  dispatch: 'local:perf_compare',
  summary: 'Judge run B against run A (two tapir:perf_run files) per painted frame, noise taken as the repeat-to-repeat range; exits 1 on an error-level regression. Needs no app.',
  example: 'build/perf/list-before.json build/perf/list-after.json',
  positional: ['a', 'b'],
  annotations: {readOnly: true},
  params: [
    {name: 'a', type: 'string', required: true, local: true, description: 'Baseline run file.', missing: COMPARE_USAGE},
    {name: 'b', type: 'string', required: true, local: true, description: 'Candidate run file.', missing: COMPARE_USAGE},
    {name: 'json', type: 'boolean', local: true, description: 'Return the JSON result instead of the table.'},
  ],
  async execute(context, input): Promise<Result> {
    const a = readRun(context.cwd, String(input.a), 'A')
    const b = readRun(context.cwd, String(input.b), 'B')
    return compareRuns(a, b) as unknown as Result
  },
  exitCode: (result) => (hasErrorRegression(result as unknown as Comparison) ? EXIT.failed : EXIT.ok),
  mcpIsError: (result) => hasErrorRegression(result as unknown as Comparison),
  report: (result) => ({stdout: renderComparison(result as unknown as Comparison)}),
  mcpText: (result, input) => (input.json === true ? JSON.stringify(result) : renderComparison(result as unknown as Comparison)),
}

export const perfRunVerbs: Verb[] = [perfCompare]
