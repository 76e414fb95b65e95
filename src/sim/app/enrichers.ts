import type {AppModel} from './app-model.js'
import type {Mounted, SemNode} from './frame.js'
import {locationOf} from './router.js'
import type {FieldKey} from './ui-node.js'

/** One enricher field (what the Magic integration contributes under a ref). */
export interface EnricherField {
  readonly key: string
  readonly value: string
  /** Part of observe's default projection (`includeEnrichers: "true"`). */
  readonly inDefaultSubset: boolean
}

export function enrichersFor(app: AppModel, sem: SemNode): EnricherField[] {
  const field = editableIn(sem.owner)
  return [
    ...(field === null ? [] : [{key: 'magicFormField', value: field, inDefaultSubset: true}]),
    {key: 'magicRoute', value: locationOf(app.state), inDefaultSubset: true},
    {key: 'magicAuthUser', value: app.state.user?.email ?? 'guest', inDefaultSubset: false},
  ]
}

/** The controller a widget edits: its own RenderEditable or the first one below it. */
export function editableIn(m: Mounted): FieldKey | null {
  if (m.ui.editable !== undefined) return m.ui.editable
  for (const child of m.children) {
    const found = editableIn(child)
    if (found !== null) return found
  }
  return null
}
