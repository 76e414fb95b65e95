import {resolve} from 'node:path'
import {UsageError} from '../errors.js'
import {PLATFORMS} from '../perf/scenario-types.js'
import {params} from './define.js'

// The parameters of perf_run and perf_campaign, apart from their verbs so what runs them
// (perf-run.ts, loaded only when one runs) can be typed by them too.

/** perf_run's and perf_compare's `html`, tapir's addition to the reference. */
export const HTML_PARAM = {
  name: 'html',
  type: 'string',
  local: true,
  addition: true,
  brief: 'Also write an HTML report here.',
  description: 'Also write a self-contained HTML report (frame-time charts against the budget) to this file.',
} as const

/** The report file asked for, resolved; an empty path is refused. */
export function htmlPath(cwd: string, html: string | undefined): string | undefined {
  if (html === undefined) return undefined
  if (html.trim() === '')
    throw new UsageError(
      (words) => `${words.param('html')} needs a file to write the report to, e.g. ${words.arg('html', 'build/perf/report.html')}.`,
    )
  return resolve(cwd, html)
}

export const PERF_RUN_PARAMS = params(
  {
    name: 'scenario',
    brief: 'Scenario YAML file.',
    type: 'string',
    required: true,
    local: true,
    description: 'Scenario YAML path.',
    missing: 'Missing the scenario: tapir:perf_run <scenario.yaml> (or --scenario=<file>).',
  },
  {
    name: 'variant',
    brief: "A key of the file's variants.",
    type: 'string',
    local: true,
    description: 'The variants key to run: required when the file declares variants, refused when it does not; applies to against too.',
  },
  {
    name: 'label',
    brief: 'Names the run file: a-z, 0-9, _ and -.',
    type: 'string',
    default: 'run',
    local: true,
    description: 'Names the run file: lower-case letters, digits, _ and -.',
  },
  {
    name: 'out',
    brief: 'Folder of the run file.',
    type: 'string',
    default: 'build/perf',
    local: true,
    description: 'Output directory of the run file.',
  },
  {name: 'repeat', type: 'integer', minimum: 1, local: true, description: "Repeats per series; overrides the scenario's."},
  {
    name: 'platform',
    brief: "Default: the session's device.",
    type: 'string',
    options: PLATFORMS,
    local: true,
    description: "chrome, android, ios or sim; read from the session's device when omitted.",
  },
  {
    name: 'timing',
    brief: 'Add timing-mode repeats, the ms a compare gates on.',
    type: 'boolean',
    local: true,
    description: 'Interleaved timing-mode repeats, the milliseconds tapir:perf_compare gates on.',
  },
  {
    name: 'against',
    brief: 'A baseline scenario, run in the same rounds.',
    type: 'string',
    local: true,
    description: 'A baseline scenario run in the same rounds, written to its own file.',
  },
  {
    name: 'semantics-pass',
    brief: 'Also measure with semantics off.',
    type: 'boolean',
    local: true,
    description: 'Also measure with the semantics tree released (semanticsOff).',
  },
  {
    name: 'json',
    brief: 'The run file without repeats, plus its path.',
    type: 'boolean',
    local: true,
    mcpOnly: true,
    description: 'Return the run file minus repeats[], plus path.',
  },
  HTML_PARAM,
)

export const PERF_CAMPAIGN_PARAMS = params(
  {
    name: 'campaign',
    type: 'string',
    required: true,
    local: true,
    description: 'Campaign YAML path.',
    missing: 'Missing the campaign: tapir:perf_campaign <campaign.yaml> --platform=sim (or --campaign=<file>).',
  },
  {
    name: 'platform',
    type: 'string',
    required: true,
    options: PLATFORMS,
    local: true,
    description: "The platform to start and measure on: sim, or a platform the campaign file's android:, ios: or chrome: key configures.",
    missing: 'Missing --platform: tapir:perf_campaign <campaign.yaml> --platform=sim.',
  },
  {name: 'label', type: 'string', default: 'run', local: true, description: 'Names every run file: lower-case letters, digits, _ and -.'},
  {name: 'out', type: 'string', default: 'build/perf', local: true, description: 'Output directory of the run files and error files.'},
  {name: 'only', type: 'string', local: true, description: 'Run only the scenarios whose name contains this text.'},
  {name: 'timing', type: 'boolean', local: true, description: 'Interleaved timing-mode repeats in every scenario.'},
  {name: 'semantics-pass', type: 'boolean', local: true, description: 'Also measure every scenario with the semantics tree released.'},
)
