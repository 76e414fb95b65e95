import type {AppModel} from './app-model.js'
import {paintFrame} from './raster/paint.js'
import {encodePng} from './raster/png.js'

/**
 * The three of the widget inspector's extensions the sim models, as WidgetInspectorService
 * `initServiceExtensions` registers them in a debug build (flutter/flutter
 * packages/flutter/lib/src/widgets/widget_inspector.dart):
 * - `getRootWidget` (`_registerObjectGroupServiceExtension`: `{result: ...}`): the root element's
 *   node JSON, its `valueId` an `inspector-N` id (`toId`) kept in the caller's `objectGroup`;
 * - `screenshot` (`registerServiceExtension`, params `id`, `width`, `height`, optional `margin`,
 *   `maxPixelRatio` (default 1.0), `debugPaint`): the object painted at most `width` by `height`
 *   pixels and at no more than `maxPixelRatio` pixels a logical pixel, answered as
 *   `{result: <base64 PNG>}` (`ui.ImageByteFormat.png`), or `{result: null}` with no render object;
 * - `disposeGroup` (`{result: null}`): the group's ids are gone; `toObject` of an unknown id
 *   throws `FlutterError('Id does not exist.')`.
 * The rest of the inspector's extensions are not modelled, so not registered.
 */
export class WidgetInspector {
  private nextId = 0
  private readonly groups = new Map<string, Set<string>>()
  private rootId: string | undefined

  constructor(private readonly app: AppModel) {}

  call(method: string, params: Record<string, string>): Record<string, unknown> {
    switch (method) {
      case 'ext.flutter.inspector.getRootWidget':
        return {result: this.rootWidget(params.objectGroup ?? '')}
      case 'ext.flutter.inspector.screenshot':
        return {result: this.screenshot(params)}
      case 'ext.flutter.inspector.disposeGroup':
        this.dispose(params.objectGroup ?? '')
        return {result: null}
      default:
        throw new Error(`the inspector answers no ${method}`)
    }
  }

  private rootWidget(group: string): Record<string, unknown> {
    this.rootId ??= `inspector-${this.nextId++}`
    const ids = this.groups.get(group) ?? new Set()
    ids.add(this.rootId)
    this.groups.set(group, ids)
    return {
      description: '[root]',
      type: '_ElementDiagnosticableTreeNode',
      hasChildren: true,
      valueId: this.rootId,
      widgetRuntimeType: 'RootWidget',
    }
  }

  private screenshot(params: Record<string, string>): string | null {
    const id = params.id
    if (id === undefined || params.width === undefined || params.height === undefined)
      throw new Error("'package:flutter/src/widgets/widget_inspector.dart': Failed assertion: parameters.containsKey")
    if (![...this.groups.values()].some((ids) => ids.has(id))) throw new Error('Id does not exist.')
    this.app.pump()
    const region = this.app.frame.root.ui.rect
    const ratio = Math.min(
      Number(params.maxPixelRatio ?? '1.0'),
      Number(params.width) / region.width,
      Number(params.height) / region.height,
    )
    const image = paintFrame(this.app.frame, region, ratio, this.app.state.settings.darkMode)
    return encodePng(image).toString('base64')
  }

  private dispose(group: string): void {
    this.groups.delete(group)
    if (![...this.groups.values()].some((ids) => this.rootId !== undefined && ids.has(this.rootId))) this.rootId = undefined
  }
}
