import {readdirSync} from 'node:fs'
import {basename, dirname, join, resolve} from 'node:path'
import {DEVICE_PLATFORMS, readLaunch, type DevicePlatform, type Launch} from './campaign-launch.js'
import {into, isMap, type ReadContext, unknownKeys} from './scenario-entries.js'
import {ScenarioError, readSetup, readYaml} from './scenario-file.js'
import {PLATFORMS, type SetupEntry} from './scenario-types.js'

const KEYS = ['scenarios', 'hooks', 'android', 'ios', 'chrome', 'after_start', 'retries']
const HOOKS = ['before_campaign', 'before_scenario']

export interface Campaign {
  /** Scenario files the globs matched, in the order of the globs (each glob's sorted), absolute. */
  files: string[]
  hooks: {beforeCampaign?: string; beforeScenario?: string}
  afterStart: SetupEntry[]
  retries: number
  /** Secrets typed by after_start, masked in everything the campaign writes. */
  secrets: string[]
  /** How to start the app on each real platform the file configures. */
  launches: Partial<Record<DevicePlatform, Launch>>
}

/** `*` only in the file name: `perf/*.yaml`, never `perf/*\/list.yaml`. */
function expand(pattern: string, dir: string, problems: string[]): string[] {
  const full = resolve(dir, pattern)
  if (dirname(full).includes('*')) {
    problems.push(`scenarios: ${pattern}: * is allowed only in the file name`)
    return []
  }
  const name = basename(full)
  if (!name.includes('*')) return [full]
  const matcher = new RegExp(
    `^${name
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  )
  let entries: string[]
  try {
    entries = readdirSync(dirname(full))
  } catch {
    problems.push(`scenarios: ${pattern}: no such folder ${dirname(full)}`)
    return []
  }
  const matched = entries
    .sort()
    .filter((entry) => matcher.test(entry))
    .map((entry) => join(dirname(full), entry))
  if (matched.length === 0) problems.push(`scenarios: ${pattern} matched no file`)
  return matched
}

/** Reads a campaign file; every problem is reported together. */
export function loadCampaign(path: string, env: Readonly<Record<string, string | undefined>>): Campaign {
  const problems: string[] = []
  const file = resolve(path)
  const data = readYaml(file, path, into(problems))
  if (problems.length > 0) throw new ScenarioError(problems, 'Invalid perf campaign:')
  if (!isMap(data))
    throw new ScenarioError(
      ['the file must be a YAML map (scenarios, hooks, after_start, retries, android, ios, chrome)'],
      'Invalid perf campaign:',
    )
  unknownKeys(data, KEYS, 'campaign', into(problems))
  const scenarios: unknown[] = Array.isArray(data.scenarios) ? data.scenarios : []
  const patterns = scenarios.every((item) => typeof item === 'string') ? scenarios.filter((item) => typeof item === 'string') : []
  if (patterns.length === 0) problems.push('scenarios: required, a non-empty list of file globs')
  const files = [...new Set(patterns.flatMap((pattern) => expand(pattern, dirname(file), problems).sort()))]
  const hooks: Campaign['hooks'] = {}
  if (data.hooks !== undefined) {
    if (!isMap(data.hooks)) problems.push('hooks: must be a map of before_campaign / before_scenario to a shell command')
    else {
      unknownKeys(data.hooks, HOOKS, 'hooks', into(problems))
      for (const hook of HOOKS) {
        const command = data.hooks[hook]
        if (command === undefined) continue
        if (typeof command !== 'string' || command.trim() === '') problems.push(`hooks.${hook}: must be a shell command`)
        else if (command.includes('${'))
          problems.push(`hooks.${hook}: \${ is refused in hooks (they are not interpolated); read the TAPIR_PERF_* variables as $NAME`)
        else hooks[hook === 'before_campaign' ? 'beforeCampaign' : 'beforeScenario'] = command
      }
    }
  }
  const launches: Campaign['launches'] = {}
  for (const platform of DEVICE_PLATFORMS) {
    if (data[platform] === undefined) continue
    const launch = readLaunch(data[platform], platform, problems)
    if (launch) launches[platform] = launch
  }
  let retries = 1
  if (data.retries !== undefined) {
    const wanted = data.retries
    if (typeof wanted !== 'number' || !Number.isInteger(wanted) || wanted < 0)
      problems.push(`retries: must be an integer of at least 0 (got ${JSON.stringify(wanted)})`)
    else retries = wanted
  }
  const c: ReadContext = {scope: {params: new Map(), env}, platforms: [...PLATFORMS], secrets: new Set()}
  const afterStart =
    data.after_start === undefined
      ? []
      : readSetup(data.after_start, 'after_start', c, {dir: dirname(file), stack: [file], files: new Map()}, into(problems))
  if (problems.length > 0) throw new ScenarioError(problems, 'Invalid perf campaign:')
  return {files, hooks, afterStart, retries, secrets: [...c.secrets], launches}
}
