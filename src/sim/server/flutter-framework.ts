/**
 * The `ext.flutter.*` extensions the Flutter bindings register in a debug app, each with the
 * binding's conventions (foundation/binding.dart `registerBoolServiceExtension`: take and return
 * `enabled` as "true"/"false"; numeric ones a key named after the extension; signals `{}`).
 * Sources (flutter/flutter):
 * - foundation/binding.dart `initServiceExtensions`: reassemble.
 * - scheduler/binding.dart `initServiceExtensions`: timeDilation.
 * - rendering/binding.dart `initServiceExtensions`, names from rendering/service_extensions.dart
 *   `RenderingServiceExtensions` (@33cab039): the debug flags and the semantics dumps.
 * - widgets/binding.dart `initServiceExtensions` (@0003365d): the first-frame queries, the build
 *   profiles, showPerformanceOverlay (not on the web), debugAllowBanner and, inside its debug-only
 *   assert, `AccessibilityInspector.initServiceExtensions` (widgets/accessibility_inspector.dart
 *   @e300a409: `accessibility.getSemanticsTree`, the only one it registers).
 * - widgets/widget_inspector.dart `WidgetInspectorService.initServiceExtensions`: of its
 *   `inspector.*`, disposeGroup, getRootWidget and screenshot (src/sim/app/widget-inspector.ts).
 * Not modelled, so not registered: the dumps of the widget, render, layer and focus trees,
 * `accessibilityEvaluations`, the widget inspector's other `inspector.*` and foundation's platform
 * overrides. State lives as long as the isolate. The semantics views are the app's to answer.
 */
export type FrameworkExtension =
  | {readonly kind: 'bool'; readonly name: string; readonly web?: false}
  | {readonly kind: 'signal' | 'firstFrame' | 'timeDilation'; readonly name: string}
  | {readonly kind: 'app'; readonly name: string}

const bool = (name: string, web?: false): FrameworkExtension => ({kind: 'bool', name, ...(web === false ? {web} : {})})

export const FRAMEWORK_EXTENSIONS: readonly FrameworkExtension[] = [
  {kind: 'signal', name: 'ext.flutter.reassemble'},
  {kind: 'timeDilation', name: 'ext.flutter.timeDilation'},
  bool('ext.flutter.invertOversizedImages'),
  bool('ext.flutter.debugPaint'),
  bool('ext.flutter.debugPaintBaselinesEnabled'),
  bool('ext.flutter.repaintRainbow'),
  bool('ext.flutter.debugDisableClipLayers'),
  bool('ext.flutter.debugDisablePhysicalShapeLayers'),
  bool('ext.flutter.debugDisableOpacityLayers'),
  {kind: 'app', name: 'ext.flutter.debugDumpSemanticsTreeInTraversalOrder'},
  {kind: 'app', name: 'ext.flutter.debugDumpSemanticsTreeInInverseHitTestOrder'},
  bool('ext.flutter.profileRenderObjectPaints'),
  bool('ext.flutter.profileRenderObjectLayouts'),
  bool('ext.flutter.showPerformanceOverlay', false),
  {kind: 'firstFrame', name: 'ext.flutter.didSendFirstFrameEvent'},
  {kind: 'firstFrame', name: 'ext.flutter.didSendFirstFrameRasterizedEvent'},
  bool('ext.flutter.profileWidgetBuilds'),
  bool('ext.flutter.profileUserWidgetBuilds'),
  bool('ext.flutter.debugAllowBanner'),
  // WidgetInspectorService.initServiceExtensions, called in the same assert after debugAllowBanner:
  // the three the sim models (src/sim/app/widget-inspector.ts), in the order it registers them.
  {kind: 'app', name: 'ext.flutter.inspector.disposeGroup'},
  {kind: 'app', name: 'ext.flutter.inspector.getRootWidget'},
  {kind: 'app', name: 'ext.flutter.inspector.screenshot'},
  {kind: 'app', name: 'ext.flutter.accessibility.getSemanticsTree'},
]

export class FlutterFramework {
  private readonly flags = new Map<string, boolean>()
  private timeDilation = 1

  /** Whether runApp has drawn the first frame: widgets/binding.dart answers didSendFirstFrameEvent
   *  (and ...RasterizedEvent) `'false'` until then (`_needToReportFirstFrame`). A restarted app's
   *  main() reaches runApp only after what comes before it (TapirPlugin.install() in a package app). */
  constructor(public firstFrameSent = true) {}

  /** The names a debug app registers: a web build has no showPerformanceOverlay (`!kIsWeb`). */
  static extensions(web: boolean): string[] {
    return FRAMEWORK_EXTENSIONS.filter((e) => !(web && e.kind === 'bool' && e.web === false)).map((e) => e.name)
  }

  /** Whether the app's own state answers it (the semantics views). */
  static answeredByApp(method: string): boolean {
    return FRAMEWORK_EXTENSIONS.some((e) => e.name === method && e.kind === 'app')
  }

  call(method: string, params: Record<string, string>): Record<string, unknown> {
    const extension = FRAMEWORK_EXTENSIONS.find((e) => e.name === method)
    switch (extension?.kind) {
      case 'signal':
        return {}
      case 'firstFrame':
        return {enabled: String(this.firstFrameSent)}
      case 'bool': {
        if (params.enabled !== undefined) this.flags.set(method, params.enabled === 'true')
        return {enabled: String(this.flags.get(method) ?? method === 'ext.flutter.debugAllowBanner')}
      }
      case 'timeDilation':
        if (params.timeDilation !== undefined) this.timeDilation = parseDartDouble(params.timeDilation)
        return {timeDilation: dartDoubleText(this.timeDilation)}
      default:
        throw new Error(`FlutterFramework has no handler for ${method}`)
    }
  }
}

function parseDartDouble(text: string): number {
  const value = Number(text)
  if (text.trim() === '' || Number.isNaN(value)) throw new Error(`FormatException: Invalid double\n${text}`)
  return value
}

function dartDoubleText(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value)
}
