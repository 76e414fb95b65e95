import type {AppModel} from './app-model.js'
import {diffSnapshot} from './diff.js'
import type {Params} from './params.js'
import {renderSnapshot} from './snapshot-yaml.js'

type SnapshotMode = 'full' | 'diff' | 'none'

/** The post-action snapshot: `snapshot` (full, diff or none) overrides `includeSnapshot`. Every one taken becomes the new diff baseline. */
export function postActionSnapshot(app: AppModel, params: Params, includeByDefault = true): {snapshot?: string; snapshotMode?: 'diff'} {
  const mode = snapshotMode(params, includeByDefault)
  if (mode === 'none') return {}
  const {yaml} = renderSnapshot(app)
  const baseline = app.baseline
  app.baseline = yaml
  if (mode === 'diff' && baseline !== null) return {snapshot: diffSnapshot(baseline, yaml), snapshotMode: 'diff'}
  return {snapshot: yaml}
}

function snapshotMode(params: Params, includeByDefault: boolean): SnapshotMode {
  const requested = params.optional('snapshot')
  if (requested === 'full' || requested === 'diff' || requested === 'none') return requested
  return params.bool('includeSnapshot', includeByDefault) ? 'full' : 'none'
}
