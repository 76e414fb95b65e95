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

/** What a snapshot bound to an `e<N>` ref: the node, and the label-and-index query that can relocate it. */
export interface SnapshotRef {
  readonly token: string
  ownerPath: string
  semanticsId: number
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
  private nextE = 1
  private nextQ = 1

  /** The node's existing token, its binding refreshed, or a new one. */
  register(binding: SnapshotBinding): string {
    const token = this.tokenBySemanticsId.get(binding.semanticsId) ?? `e${this.nextE++}`
    this.snapshotRefs.set(token, {token, ...binding})
    this.tokenBySemanticsId.set(binding.semanticsId, token)
    return token
  }

  lookup(token: string): SnapshotRef | undefined {
    return this.snapshotRefs.get(token)
  }

  /** Points a relocated ref at the node that replaced its own. */
  relocate(ref: SnapshotRef, ownerPath: string, semanticsId: number): void {
    ref.ownerPath = ownerPath
    ref.semanticsId = semanticsId
    if (!this.tokenBySemanticsId.has(semanticsId)) this.tokenBySemanticsId.set(semanticsId, ref.token)
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
