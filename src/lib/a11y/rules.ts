// The rules of flutter_test's accessibility.dart (flutter/flutter at
// 33fe4088762fa96815441272a375bee054dc1c52), applied to what snap, observe and a screenshot give.
// docs/a11y.md says, rule by rule, where tapir's view of a node differs from flutter_test's.
import {contrastReport, hex, histogram, passes, targetRatio, type RgbaImage} from './contrast.js'
import type {Box, Finding, ScreenNode} from './types.js'

/** androidTapTargetGuideline and iOSTapTargetGuideline: Size(48, 48) and Size(44, 44). */
export const TAP_TARGET = {android: 48, ios: 44} as const
/** MinimumTapTargetGuideline._kMinimumGapToBoundary. */
export const MINIMUM_GAP_TO_BOUNDARY = 0.001
/** precisionErrorTolerance (flutter/foundation constants.dart): a size this far short still passes. */
export const PRECISION_ERROR_TOLERANCE = 1e-10
/** Flutter inflates a Text's paint bounds by 4 logical pixels before it reads the colours. */
export const TEXT_INFLATE = 4

/** Roles whose node takes a tap (SemanticsAction.tap): what a button, link, checkbox or text field is. */
const TAPPABLE = new Set(['button', 'link', 'checkbox', 'textbox', 'switch', 'radio', 'tab', 'menuitem', 'slider'])

export const isTappable = (node: ScreenNode): boolean => TAPPABLE.has(node.role) && node.enabled !== false

/** A node flutter_test would skip as hidden or out of view: observe says it is not visible, or
 *  the snapshot marks it offscreen. */
const isHidden = (node: ScreenNode): boolean => node.visible === false || node.offscreen === true

/** _isAtBoundary: true unless every side keeps more than 0.001 from the parent's. */
export function isAtBoundary(child: Box, parent: Box): boolean {
  const gap = MINIMUM_GAP_TO_BOUNDARY
  return !(
    child.x - parent.x > gap &&
    parent.x + parent.w - (child.x + child.w) > gap &&
    child.y - parent.y > gap &&
    parent.y + parent.h - (child.y + child.h) > gap
  )
}

const size = (w: number, h: number): string => `${round(w)}x${round(h)}`
const round = (n: number): string => String(Math.round(n * 100) / 100)

/** MinimumTapTargetGuideline: a tappable node (tap or long press), not hidden, not a link, not
 *  at the view's edge, at least `min`x`min` logical pixels. */
export function tapTargetFindings(nodes: readonly ScreenNode[], view: Box, min: number, platform: string): Finding[] {
  return nodes.flatMap((node) => {
    if (!isTappable(node) || isHidden(node) || node.role === 'link' || node.rect === null) return []
    if (isAtBoundary(node.rect, view)) return []
    const {w, h} = node.rect
    if (w >= min - PRECISION_ERROR_TOLERANCE && h >= min - PRECISION_ERROR_TOLERANCE) return []
    return [
      finding(node, 'tap-target', size(w, h), size(min, min), {
        fix: `make the tap area at least ${min}x${min} (${platform}): pad it or wrap it in a SizedBox of that size, or keep MaterialTapTargetSize.padded`,
      }),
    ]
  })
}

/** LabeledTapTargetGuideline: a tappable node other than a text field needs a label (a
 *  tooltip counts: the snapshot shows it as the label where the app reports it so). */
export function labelFindings(nodes: readonly ScreenNode[]): Finding[] {
  return nodes.flatMap((node) => {
    if (!isTappable(node) || isHidden(node) || node.role === 'textbox' || node.label !== '') return []
    return [
      finding(node, 'label', 'none', 'a label or tooltip', {
        fix: 'give it a label a screen reader can say: a tooltip (IconButton(tooltip: ...)), semanticLabel, or Semantics(label: ...)',
      }),
    ]
  })
}

export interface ContrastOptions {
  image: RgbaImage
  /** Device pixels per logical pixel in `image`. */
  dpr: number
  /** The font the target assumes: the app tells none through snap or observe. */
  fontSize?: number
  bold?: boolean
}

/** MinimumTextContrastGuideline over the screenshot: each node with text (a label or value),
 *  not disabled or hidden, its rect's colours split into light and dark by Flutter's method.
 *  A text line's rect is inflated by 4 as Flutter inflates a Text's; a control's is its own. A
 *  control whose rect is one flat colour holds no painted text (an icon, say): flutter_test
 *  measures Text widgets only, so it is skipped; a flat text line fails, as in flutter_test. */
export function contrastFindings(nodes: readonly ScreenNode[], options: ContrastOptions): Finding[] {
  const target = targetRatio(options.fontSize, options.bold ?? false)
  const assumed =
    options.fontSize === undefined
      ? `font size 12 (Flutter's default), not bold: the app reports no text style; large text (18, or bold 14) needs 3:1`
      : undefined
  return nodes.flatMap((node) => {
    if (node.enabled === false || isHidden(node) || node.rect === null) return []
    if (node.label.trim() === '' && node.value.trim() === '') return []
    const inflate = node.role === 'text' ? TEXT_INFLATE : 0
    const {x, y, w, h} = node.rect
    const d = options.dpr
    const counts = histogram(options.image, (x - inflate) * d, (y - inflate) * d, (x + w + inflate) * d, (y + h + inflate) * d)
    const report = contrastReport(counts)
    if (report === undefined || (report.colours === 1 && node.role !== 'text')) return []
    if (passes(report.ratio, target)) return []
    return [
      finding(node, 'contrast', `${report.ratio.toFixed(2)}:1`, `${target}:1`, {
        fix: `raise the contrast between ${hex(report.dark)} and ${hex(report.light)} to at least ${target}:1 (darker text or a lighter background)`,
        ...(assumed ? {assumed} : {}),
      }),
    ]
  })
}

function finding(
  node: ScreenNode,
  rule: Finding['rule'],
  measured: string,
  threshold: string,
  extra: {fix: string; assumed?: string},
): Finding {
  return {
    rule,
    ref: node.ref,
    role: node.role,
    label: node.label !== '' ? node.label : node.value,
    rect: node.rect,
    measured,
    threshold,
    ...extra,
  }
}
