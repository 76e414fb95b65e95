/**
 * Semantics node ids, stable per render object: an element that stays mounted keeps its id from
 * frame to frame; one that leaves the tree loses it, and coming back makes a new node with a new id.
 */
export class NodeIds {
  private byPath = new Map<string, number>()
  private next = 1

  /** Assigns ids for one frame's mounted paths, forgetting every path that is no longer mounted. */
  retain(paths: Iterable<string>): Map<string, number> {
    const kept = new Map<string, number>()
    for (const path of paths) kept.set(path, this.byPath.get(path) ?? this.next++)
    this.byPath = kept
    return kept
  }
}
