import {describe, expect, it} from 'vitest'
import {AppConnection} from '../../src/lib/vm/app-connection.js'
import {Deadline} from '../../src/lib/vm/deadline.js'
import {startSim} from '../../src/sim/index.js'
import {FlutterFramework} from '../../src/sim/server/flutter-framework.js'

/**
 * The ext.flutter.* a debug Flutter app registers that the sim models, each where flutter/flutter
 * registers it (packages/flutter/lib/src/...):
 * - foundation/binding.dart `initServiceExtensions`: reassemble;
 * - scheduler/binding.dart `initServiceExtensions`: timeDilation;
 * - rendering/binding.dart `initServiceExtensions`, named by rendering/service_extensions.dart
 *   `RenderingServiceExtensions` (@33cab039);
 * - widgets/binding.dart `initServiceExtensions` (@0003365d), with `showPerformanceOverlay` under
 *   `!kIsWeb` and, inside its debug-only assert, debugAllowBanner and
 *   `WidgetInspectorService.initServiceExtensions` (widgets/widget_inspector.dart @a9750868: of
 *   its `inspector.*` the sim models disposeGroup, getRootWidget and screenshot) and
 *   `AccessibilityInspector.initServiceExtensions` (widgets/accessibility_inspector.dart
 *   @e300a409: only `accessibility.getSemanticsTree`).
 * The sim registers these in every mode and package choice; nothing of ext.flutter.* beyond them.
 */
const FLUTTER_EXTENSIONS = [
  'ext.flutter.reassemble',
  'ext.flutter.timeDilation',
  'ext.flutter.invertOversizedImages',
  'ext.flutter.debugPaint',
  'ext.flutter.debugPaintBaselinesEnabled',
  'ext.flutter.repaintRainbow',
  'ext.flutter.debugDisableClipLayers',
  'ext.flutter.debugDisablePhysicalShapeLayers',
  'ext.flutter.debugDisableOpacityLayers',
  'ext.flutter.debugDumpSemanticsTreeInTraversalOrder',
  'ext.flutter.debugDumpSemanticsTreeInInverseHitTestOrder',
  'ext.flutter.profileRenderObjectPaints',
  'ext.flutter.profileRenderObjectLayouts',
  'ext.flutter.showPerformanceOverlay',
  'ext.flutter.didSendFirstFrameEvent',
  'ext.flutter.didSendFirstFrameRasterizedEvent',
  'ext.flutter.profileWidgetBuilds',
  'ext.flutter.profileUserWidgetBuilds',
  'ext.flutter.debugAllowBanner',
  'ext.flutter.inspector.disposeGroup',
  'ext.flutter.inspector.getRootWidget',
  'ext.flutter.inspector.screenshot',
  'ext.flutter.accessibility.getSemanticsTree',
]

async function registered(options: Parameters<typeof startSim>[0]): Promise<string[]> {
  const sim = await startSim(options)
  const app = await AppConnection.open(sim.wsUri, 5000)
  try {
    return (await app.extensionRPCs(new Deadline(5000))).filter((name) => name.startsWith('ext.flutter.'))
  } finally {
    app.client.close()
    await sim.close()
  }
}

describe("Flutter's own extensions, as a debug app registers them", () => {
  it('the sim models exactly the cited set', () => {
    expect(FlutterFramework.extensions(false)).toEqual(FLUTTER_EXTENSIONS)
    expect(FlutterFramework.extensions(true)).toEqual(FLUTTER_EXTENSIONS.filter((name) => name !== 'ext.flutter.showPerformanceOverlay'))
  })

  it('registers them with the tapir package, with Dusk, and with none', async () => {
    for (const pkg of ['tapir', 'dusk', 'none'] as const) expect(await registered({package: pkg})).toEqual(FLUTTER_EXTENSIONS)
  })
})
