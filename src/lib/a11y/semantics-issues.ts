import type {Finding} from './types.js'

/** What Flutter's `ext.flutter.accessibility.getSemanticsTree` answers (flutter/flutter PR
 *  #189635, AccessibilityInspector): per node id, the node's JSON and the rules it breaks. */
export interface SemanticsTreeAnswer {
  data?: Record<string, {node?: {label?: string; tooltip?: string}; issues?: Array<{rule?: string; description?: string}>}>
}

/** The app's own findings, where its Flutter has the inspector: one per issue, under the rule
 *  `semantics`, naming Flutter's rule. The tree's node ids are not snapshot refs, so ref is null
 *  and the label says which node it is. */
export function semanticsIssueFindings(answer: SemanticsTreeAnswer): Finding[] {
  return Object.entries(answer.data ?? {}).flatMap(([id, entry]) =>
    (entry.issues ?? []).map((issue) => ({
      rule: 'semantics' as const,
      ref: null,
      role: `semantics node ${id}`,
      label: entry.node?.label ?? entry.node?.tooltip ?? '',
      rect: null,
      measured: issue.rule ?? 'issue',
      threshold: 'none',
      fix: issue.description ?? `Flutter reports ${issue.rule ?? 'an issue'} on this node`,
    })),
  )
}
