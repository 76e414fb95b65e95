// Each threshold and skip below is held to flutter_test's accessibility.dart as it stands at
// flutter/flutter 33fe4088762fa96815441272a375bee054dc1c52 (docs/a11y.md cites each function).
import {describe, expect, it} from 'vitest'
import {
  contrastReport,
  histogram,
  LARGE_TEXT_RATIO,
  lightness,
  luminance,
  NORMAL_TEXT_RATIO,
  passes,
  targetRatio,
  type RgbaImage,
} from '../../src/lib/a11y/contrast.js'
import {failsOn, findingLine, parseRules} from '../../src/lib/a11y/findings.js'
import {contrastFindings, isAtBoundary, labelFindings, TAP_TARGET, tapTargetFindings} from '../../src/lib/a11y/rules.js'
import {screenNodes, snapshotLines} from '../../src/lib/a11y/screen-nodes.js'
import type {Box, ScreenNode} from '../../src/lib/a11y/types.js'
import {UsageError} from '../../src/lib/errors.js'

const VIEW: Box = {x: 0, y: 0, w: 400, h: 800}
const button = (rect: Box, extra: Partial<ScreenNode> = {}): ScreenNode => ({
  ref: 'e1',
  role: 'button',
  label: 'Go',
  value: '',
  rect,
  ...extra,
})

describe('tap-target (MinimumTapTargetGuideline)', () => {
  it('asks 48x48 on Android and 44x44 on iOS (androidTapTargetGuideline, iOSTapTargetGuideline)', () => {
    expect(TAP_TARGET).toEqual({android: 48, ios: 44})
    const small = [button({x: 10, y: 10, w: 44, h: 44})]
    expect(tapTargetFindings(small, VIEW, 48, 'android')).toMatchObject([
      {rule: 'tap-target', ref: 'e1', measured: '44x44', threshold: '48x48'},
    ])
    expect(tapTargetFindings(small, VIEW, 44, 'ios')).toEqual([])
  })

  it('fails when either side is short, by more than precisionErrorTolerance (1e-10)', () => {
    expect(tapTargetFindings([button({x: 10, y: 10, w: 48, h: 47.9})], VIEW, 48, 'android')).toHaveLength(1)
    expect(tapTargetFindings([button({x: 10, y: 10, w: 47.9, h: 48})], VIEW, 48, 'android')).toHaveLength(1)
    expect(tapTargetFindings([button({x: 10, y: 10, w: 48 - 1e-11, h: 48})], VIEW, 48, 'android')).toEqual([])
  })

  it('skips a node within 0.001 of the view edge (_isAtBoundary, _kMinimumGapToBoundary)', () => {
    expect(isAtBoundary({x: 0.001, y: 10, w: 10, h: 10}, VIEW)).toBe(true)
    expect(isAtBoundary({x: 0.0011, y: 10, w: 10, h: 10}, VIEW)).toBe(false)
    expect(isAtBoundary({x: 10, y: 10, w: 390, h: 10}, VIEW)).toBe(true)
    expect(tapTargetFindings([button({x: 0, y: 10, w: 20, h: 20})], VIEW, 48, 'android')).toEqual([])
    expect(tapTargetFindings([button({x: 10, y: 780, w: 20, h: 20})], VIEW, 48, 'android')).toEqual([])
  })

  it('skips links, hidden nodes and nodes without a tap (shouldSkipNode): disabled controls and plain text', () => {
    const rect = {x: 10, y: 10, w: 20, h: 20}
    const skipped = [
      button(rect, {role: 'link'}),
      button(rect, {visible: false}),
      button(rect, {offscreen: true}),
      button(rect, {enabled: false}),
      button(rect, {role: 'heading'}),
      button(rect, {role: 'text', ref: null}),
    ]
    expect(tapTargetFindings(skipped, VIEW, 48, 'android')).toEqual([])
    expect(tapTargetFindings([button(rect, {role: 'checkbox'}), button(rect, {role: 'textbox'})], VIEW, 48, 'android')).toHaveLength(2)
  })
})

describe('label (LabeledTapTargetGuideline)', () => {
  const rect = {x: 10, y: 10, w: 48, h: 48}
  it('fails a tappable node with no label, and says how to give one', () => {
    expect(labelFindings([button(rect, {label: ''})])).toMatchObject([
      {rule: 'label', ref: 'e1', measured: 'none', fix: expect.stringContaining('tooltip')},
    ])
  })
  it('exempts text fields, and skips hidden and untappable nodes', () => {
    const nodes = [
      button(rect, {label: '', role: 'textbox'}),
      button(rect, {label: '', visible: false}),
      button(rect, {label: '', enabled: false}),
      button(rect, {label: '', role: 'heading'}),
      button(rect, {label: 'Share'}),
    ]
    expect(labelFindings(nodes)).toEqual([])
  })
  it('takes a label of blanks as a label, as data.label.isEmpty does (no trim)', () => {
    expect(labelFindings([button(rect, {label: '  '})])).toEqual([])
  })
})

/** An image of `w`x`h` filled with `bg`, with a `fg` block; colours are 0xRRGGBB. */
function image(w: number, h: number, bg: number, fg?: {colour: number; x: number; y: number; w: number; h: number}): RgbaImage {
  const data = new Uint8Array(w * h * 4)
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const inside = fg && x >= fg.x && x < fg.x + fg.w && y >= fg.y && y < fg.y + fg.h
      const c = inside ? fg.colour : bg
      data.set([(c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff, 0xff], (y * w + x) * 4)
    }
  return {width: w, height: h, data}
}
const rgba = (rgb: number): number => ((rgb << 8) | 0xff) >>> 0

describe('contrast (MinimumTextContrastGuideline, _ContrastReport)', () => {
  it('uses WCAG AA: 4.5:1, or 3:1 from 18, or bold from 14, with 12 as the default size (targetContrastRatio)', () => {
    expect([NORMAL_TEXT_RATIO, LARGE_TEXT_RATIO]).toEqual([4.5, 3.0])
    expect(targetRatio(undefined, false)).toBe(4.5)
    expect(targetRatio(17.9, false)).toBe(4.5)
    expect(targetRatio(18, false)).toBe(3.0)
    expect(targetRatio(14, true)).toBe(3.0)
    expect(targetRatio(13.9, true)).toBe(4.5)
    expect(targetRatio(undefined, true)).toBe(4.5)
  })

  it('passes a ratio up to 0.01 under the target (_tolerance)', () => {
    expect(passes(4.49, 4.5)).toBe(true)
    expect(passes(4.489, 4.5)).toBe(false)
  })

  it('computes WCAG luminance and HSL lightness as Color.computeLuminance and HSLColor do', () => {
    expect(luminance(rgba(0xffffff))).toBeCloseTo(1, 10)
    expect(luminance(rgba(0x000000))).toBe(0)
    expect(luminance(rgba(0x9e9e9e))).toBeCloseTo(0.3419, 4)
    expect(lightness(rgba(0xff0000))).toBe(0.5)
    expect(lightness(rgba(0x9e9e9e))).toBeCloseTo(158 / 255, 10)
  })

  it('splits colours at the mean lightness and takes the most frequent on each side; grey on white is 2.68:1', () => {
    const img = image(10, 10, 0xffffff, {colour: 0x9e9e9e, x: 2, y: 2, w: 4, h: 4})
    const report = contrastReport(histogram(img, 0, 0, 10, 10))!
    expect(report.light).toBe(rgba(0xffffff))
    expect(report.dark).toBe(rgba(0x9e9e9e))
    expect(report.ratio).toBeCloseTo(1.05 / (luminance(rgba(0x9e9e9e)) + 0.05), 10)
    expect(report.ratio.toFixed(2)).toBe('2.68')
  })

  it('clips the rect to the image and widens it to whole pixels (_colorsWithinRect)', () => {
    const img = image(4, 4, 0xffffff)
    expect([...histogram(img, -10, -10, 2.2, 1.5).values()]).toEqual([6])
    expect(histogram(img, 5, 5, 9, 9).size).toBe(0)
  })

  it('reports a flat rect as light and dark alike, ratio 1, so text that is not painted fails', () => {
    const report = contrastReport(histogram(image(4, 4, 0x336699), 0, 0, 4, 4))!
    expect(report.ratio).toBe(1)
    const text: ScreenNode = {ref: null, role: 'text', label: 'Hi', value: '', rect: {x: 4, y: 4, w: 2, h: 2}}
    expect(contrastFindings([text], {image: image(12, 12, 0x336699), dpr: 1})).toMatchObject([{rule: 'contrast', measured: '1.00:1'}])
  })

  it('measures a text line over its rect inflated by 4, at the device pixel ratio, and says what it assumed', () => {
    // The text's rect (logical 4,4 2x2) at dpr 2 holds only grey; the 4-pixel halo brings in the white.
    const img = image(24, 24, 0xffffff, {colour: 0x9e9e9e, x: 8, y: 8, w: 4, h: 4})
    const text: ScreenNode = {ref: null, role: 'text', label: 'Hi', value: '', rect: {x: 4, y: 4, w: 2, h: 2}}
    const [finding] = contrastFindings([text], {image: img, dpr: 2})
    expect(finding).toMatchObject({measured: '2.68:1', threshold: '4.5:1', assumed: expect.stringContaining('font size 12')})
    expect(contrastFindings([text], {image: img, dpr: 2, fontSize: 18})).toMatchObject([{threshold: '3:1', measured: '2.68:1'}])
    expect(contrastFindings([text], {image: img, dpr: 2, fontSize: 18})[0]!.assumed).toBeUndefined()
  })

  it('skips disabled, hidden and textless nodes, a control with no painted text, and a rect off the image', () => {
    const img = image(24, 24, 0xffffff, {colour: 0xeeeeee, x: 0, y: 0, w: 24, h: 24})
    const at = {x: 2, y: 2, w: 4, h: 4}
    const nodes: ScreenNode[] = [
      {ref: 'e1', role: 'button', label: 'Off', value: '', rect: at, enabled: false},
      {ref: 'e2', role: 'button', label: 'Away', value: '', rect: at, visible: false},
      {ref: 'e3', role: 'button', label: ' ', value: '', rect: at},
      {ref: 'e4', role: 'button', label: 'Icon only', value: '', rect: at},
      {ref: null, role: 'text', label: 'Far', value: '', rect: {x: 100, y: 100, w: 4, h: 4}},
    ]
    expect(contrastFindings(nodes, {image: img, dpr: 1})).toEqual([])
  })
})

describe('reading the screen', () => {
  const yaml = [
    '- heading "Accessibility check" [ref=e1]',
    '- button "" [ref=e2]',
    '- button "Say \\"hi\\"": "on" [ref=e3] [offscreen]',
    '  tapOwner: {"x":1.0}',
    '- text "Last checked"',
    '  - textbox "Email" [ref=e4]',
    '    typeable: true',
  ].join('\n')

  it('takes the ref lines and text lines of a snapshot, unescaped, with their markers', () => {
    expect(snapshotLines(yaml)).toEqual([
      {ref: 'e1', role: 'heading', label: 'Accessibility check', value: '', offscreen: false},
      {ref: 'e2', role: 'button', label: '', value: '', offscreen: false},
      {ref: 'e3', role: 'button', label: 'Say "hi"', value: 'on', offscreen: true},
      {ref: null, role: 'text', label: 'Last checked', value: '', offscreen: false},
      {ref: 'e4', role: 'textbox', label: 'Email', value: '', offscreen: false},
    ])
  })

  it('gives each ref line the next observe candidate with its role, label and value, and its bounds and states', () => {
    const b = (x: number): Box => ({x, y: 0, w: 10, h: 10})
    const nodes = screenNodes(snapshotLines(yaml), [
      {role: 'heading', label: 'Accessibility check', value: null, bounds: b(1)},
      {role: 'button', label: '', value: null, bounds: b(2), isEnabled: false},
      {role: 'button', label: 'Say "hi"', value: 'on', bounds: b(3), inViewport: false},
      {role: 'textbox', label: 'Email', value: null, bounds: b(4), isVisible: true},
    ])
    expect(nodes.map((n) => [n.ref, n.rect?.x ?? null, n.enabled, n.offscreen, n.visible])).toEqual([
      ['e1', 1, undefined, undefined, undefined],
      ['e2', 2, false, undefined, undefined],
      ['e3', 3, undefined, true, undefined],
      [null, null, undefined, undefined, undefined],
      ['e4', 4, undefined, undefined, true],
    ])
  })
})

describe('options and answers', () => {
  it('reads --rules and --fail-on', () => {
    expect(parseRules(undefined, 'rules')).toEqual(['tap-target', 'label', 'contrast'])
    expect(parseRules('all', 'rules')).toEqual(['tap-target', 'label', 'contrast'])
    expect(parseRules('contrast, label', 'rules')).toEqual(['label', 'contrast'])
    expect(() => parseRules('colour', 'rules')).toThrow(UsageError)
    const found = labelFindings([button({x: 1, y: 1, w: 48, h: 48}, {label: ''})])
    expect(failsOn(undefined, found)).toBe(false)
    expect(failsOn('none', found)).toBe(false)
    expect(failsOn('any', found)).toBe(true)
    expect(failsOn('any', [])).toBe(false)
    expect(failsOn('contrast', found)).toBe(false)
    expect(failsOn('label,contrast', found)).toBe(true)
  })

  it('words a finding ref first, with the measure, the threshold and the fix', () => {
    const [finding] = tapTargetFindings([button({x: 88, y: 80, w: 32, h: 32}, {ref: 'e3', label: 'Close'})], VIEW, 48, 'android')
    expect(findingLine(finding!)).toMatch(
      /^e3 button "Close" at 88,80 32x32: tap-target 32x32, needs 48x48; fix: make the tap area at least 48x48/,
    )
  })
})
