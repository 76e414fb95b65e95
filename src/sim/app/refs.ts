/** The query a `q<N>` handle stores and re-runs on every action. */
export interface Query {
  readonly key?: string
  readonly semanticsLabel?: string
  readonly text?: string
  readonly contains?: string
  /** An `e<N>` ref whose subtree bounds the search. */
  readonly within?: string
  /** Position among the nodes the label matched (observe's same-label candidates). */
  readonly matchIndex?: number
}

/**
 * What an `e<N>` ref is bound to. A snapshot binds a semantics node and the label-and-index query
 * that can relocate it; an element-tree walk (`find_by_text`) binds a widget and nothing to
 * relocate it by (`semanticsId` null, no label).
 */
export interface SnapshotRef {
  readonly token: string
  ownerPath: string
  semanticsId: number | null
  readonly label: string
  readonly labelIndex: number
  readonly labelCount: number
  readonly route: string | null
}

export type SnapshotBinding = Omit<SnapshotRef, 'token'>

/** `e<N>` refs (one per semantics node, refreshed in place) and `q<N>` handles, two disjoint counters. */
export class RefRegistry {
  private readonly snapshotRefs = new Map<string, SnapshotRef>()
  private readonly tokenBySemanticsId = new Map<number, string>()
  private readonly queries = new Map<string, Query>()
  /** Refs relocated to the node that replaced their own, which no successful call has reported yet. */
  private readonly unreported = new Set<string>()
  private nextE = 1
  private nextQ = 1

  /** The node's existing token, its binding refreshed, or a new one. */
  register(binding: SnapshotBinding & {semanticsId: number}): string {
    const token = this.tokenBySemanticsId.get(binding.semanticsId) ?? `e${this.nextE++}`
    this.snapshotRefs.set(token, {token, ...binding})
    this.tokenBySemanticsId.set(binding.semanticsId, token)
    return token
  }

  /** A fresh token for a widget found in the element tree: never deduplicated. */
  registerElement(ownerPath: string, route: string | null): string {
    const token = `e${this.nextE++}`
    this.snapshotRefs.set(token, {token, ownerPath, semanticsId: null, label: '', labelIndex: -1, labelCount: 0, route})
    return token
  }

  lookup(token: string): SnapshotRef | undefined {
    return this.snapshotRefs.get(token)
  }

  /** Points a relocated ref at the node that replaced its own; the next successful call reports it. */
  relocate(ref: SnapshotRef, ownerPath: string, semanticsId: number): void {
    ref.ownerPath = ownerPath
    ref.semanticsId = semanticsId
    if (!this.tokenBySemanticsId.has(semanticsId)) this.tokenBySemanticsId.set(semanticsId, ref.token)
    this.unreported.add(ref.token)
  }

  /** Of these refs, the ones relocated since a successful call last reported them; they count as reported now. */
  report(tokens: Iterable<string>): string[] {
    const relocated = [...new Set(tokens)].filter((token) => this.unreported.has(token))
    for (const token of relocated) this.unreported.delete(token)
    return relocated
  }

  mintQuery(query: Query): string {
    const token = `q${this.nextQ++}`
    this.queries.set(token, query)
    return token
  }

  query(token: string): Query | undefined {
    return this.queries.get(token)
  }

  activeTokens(): string[] {
    return [...this.snapshotRefs.keys(), ...this.queries.keys()]
  }
}
