/** The app's UI isolate as the VM service sees it. A hot restart replaces it with a new one.
 *  On the web (DWDS) its id is a bare counter (`"1"`, `"2"` after a restart) and it has no group. */
export class SimIsolate {
  readonly number: string
  readonly id: string
  readonly groupNumber = randomDigits(16)
  readonly groupId = `isolateGroups/${this.groupNumber}`
  readonly rootLibId = `libraries/@${randomDigits(8)}`
  readonly startTime = Date.now()
  private readonly extensions: string[] = []
  /** What the running code has registered: on the web, the page since it last loaded. */
  private readonly live = new Set<string>()
  private objects = 0

  constructor(readonly webCounter?: number) {
    this.number = webCounter === undefined ? randomDigits(16) : String(webCounter)
    this.id = webCounter === undefined ? `isolates/${this.number}` : this.number
  }

  /** The id the next object it hands out is known by: a VM ring id (`objects/<n>`), or on the web
   *  the page's Chrome object id. */
  nextObjectId(): string {
    const n = ++this.objects
    return this.webCounter === undefined ? `objects/${n}` : JSON.stringify({injectedScriptId: this.webCounter, id: n})
  }

  /** `again`: DWDS in WebSocket mode adds a page's registration to the isolate's list even when it
   *  holds it from before a restart (proxy_service.dart `parseRegisterEvent`: `extensionRPCs?.add`). */
  register(method: string, again = false): void {
    if (again || !this.extensions.includes(method)) this.extensions.push(method)
    this.live.add(method)
  }

  /** Whether the running code has registered it (the list may still hold it from an earlier page). */
  runs(method: string): boolean {
    return this.live.has(method)
  }

  /** The page loaded again (a hot restart in DWDS's WebSocket mode): nothing registered yet. */
  reloadPage(): void {
    this.live.clear()
  }

  registered(): readonly string[] {
    return this.extensions
  }

  ref(): Record<string, unknown> {
    if (this.webCounter !== undefined) return {type: '@Isolate', id: this.id, number: this.number, name: 'main()', isSystemIsolate: false}
    return {type: '@Isolate', id: this.id, number: this.number, name: 'main', isSystemIsolate: false, isolateGroupId: this.groupId}
  }

  groupRef(): Record<string, unknown> {
    return {type: '@IsolateGroup', id: this.groupId, number: this.groupNumber, name: 'main.dart', isSystemIsolateGroup: false}
  }

  /** Flutter's libraries an expression may be evaluated in (a real isolate lists every library it loaded). */
  readonly flutterLibraries = FLUTTER_LIBRARIES.map((uri, index) => ({
    type: '@Library',
    fixedId: true,
    id: `libraries/@${this.rootLibId.slice('libraries/@'.length)}${index + 1}`,
    name: '',
    uri,
  }))

  /** The library an evaluate's targetId names: the root library or a listed Flutter one. */
  libraryUri(targetId: string): string | undefined {
    if (targetId === this.rootLibId) return 'package:monitors/main.dart'
    return this.flutterLibraries.find((library) => library.id === targetId)?.uri
  }

  rootLib(): Record<string, unknown> {
    return {type: '@Library', fixedId: true, id: this.rootLibId, name: '', uri: 'package:monitors/main.dart'}
  }
}

export const FLUTTER_LIBRARIES = [
  'package:flutter/src/rendering/binding.dart',
  'package:flutter/src/widgets/editable_text.dart',
  'package:flutter/src/widgets/navigator.dart',
]

/** Digits with a non-zero lead, below 2^53 so the number survives JSON in JavaScript clients. */
function randomDigits(count: number): string {
  const low = 10 ** (count - 1)
  return String(low + Math.floor(Math.random() * Math.min(9 * low, Number.MAX_SAFE_INTEGER - low)))
}
