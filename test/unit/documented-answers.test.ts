import {describe, expect, it} from 'vitest'
import {readAs, type Shape} from '../../src/lib/shape.js'
import {VERBS} from '../../src/lib/verbs/index.js'
import {screenshotAnswer} from '../../src/lib/verbs/screenshot-verb.js'

// Every answer shape the reference (spec/tapir-mcp-tool-reference.md, each tool's "Returns")
// documents, edge cases first, through the typed check tapir runs where the answer enters
// (src/lib/shape.ts, the `result` of each verb in src/lib/verbs). A check that refuses one of
// these would turn an allowed answer into "malformed answer".

const rect = {x: 0, y: 0, width: 10, height: 10}
const textEffect = (verified: boolean, value: string) => ({
  kind: 'text',
  verified,
  value,
  target: {matchKind: 'nearest', label: 'Email', rect},
})

const DOCUMENTED: Record<string, Array<[string, Record<string, unknown>]>> = {
  blur: [
    ['focus was held', {blurred: true, hadFocus: true}],
    ['no node held focus', {blurred: true, hadFocus: false}],
  ],
  clear: [['cleared', {ref: 'e3', text: '', effect: textEffect(true, '')}]],
  close_app: [['closed', {closed: true}]],
  console: [
    ['entries', {logs: [{level: 'info', message: 'hello', time: '2026-12-04T10:00:00.000Z', logger: 'app'}], count: 1}],
    ['no crumbs: the empty success', {logs: [], count: 0}],
  ],
  dblclick: [['tapped twice', {ref: 'e5'}]],
  dismiss_modals: [
    ['no modal open', {popped: 0}],
    ['two popped', {popped: 2}],
  ],
  drag: [['both refs echoed', {startRef: 'e1', endRef: 'e2'}]],
  exceptions: [
    [
      'one entry',
      {
        exceptions: [
          {type: 'StateError', message: 'Bad state', stackHead: '#0 main', library: 'app', fatal: false, time: '2026-12-04T10:00:00Z'},
        ],
        count: 1,
      },
    ],
    ['none', {exceptions: [], count: 0}],
  ],
  fill: [
    ['verified', {ref: 'e3', text: 'ada', filled: true, effect: textEffect(true, 'ada')}],
    ['a formatter reverted it, nearest fallback', {ref: 'e3', text: 'ada', filled: true, effect: textEffect(false, '')}],
    ['with the snapshot', {ref: 'e3', text: 'ada', filled: true, effect: textEffect(true, 'ada'), snapshot: '- button "Go" [ref=e1]'}],
  ],
  find: [
    ['first match', {ref: 'q1', matched: true}],
    ['no match: ref null', {ref: null, matched: false}],
  ],
  focus: [['focused', {ref: 'e3', focused: true}]],
  get_routes: [
    ['a Router app names no page', {location: '', title: '', uri: '/monitors'}],
    ['no Router mounted yet, after a restart', {location: '/', title: '', uri: null}],
  ],
  hover: [['hovered', {ref: 'e5'}]],
  navigate: [
    ['navigated', {navigated: true, route: '/monitors', exactPath: true}],
    ['a default child', {navigated: true, route: '/monitors', exactPath: false}],
    ['redirected', {navigated: false, route: '/admin', exactPath: false, reason: 'redirected to /sign-in'}],
    ['with the snapshot', {navigated: true, route: '/monitors', exactPath: true, snapshot: '- text "Monitors"', snapshotMode: 'full'}],
  ],
  navigate_back: [
    ['popped', {navigatedBack: true, popped: true}],
    ['nothing to leave', {navigatedBack: false, popped: false}],
  ],
  observe: [
    [
      'a candidate',
      {
        candidates: [
          {
            ref: 'e1',
            role: 'button',
            label: 'Go',
            value: '',
            bounds: rect,
            isEnabled: true,
            isVisible: true,
            inViewport: true,
            occluded: false,
            enrichers: {},
          },
        ],
      },
    ],
    [
      'a merged candidate with its tap owner, an invisible one',
      {
        candidates: [
          {
            ref: 'e2',
            role: 'text',
            label: 'Card',
            value: '',
            bounds: rect,
            isEnabled: true,
            isVisible: false,
            inViewport: false,
            occluded: false,
            enrichers: {'wind.breakpoint': 'md'},
            tapOwner: {x: 1, y: 2, w: 3, h: 4},
          },
        ],
      },
    ],
    ['none', {candidates: []}],
  ],
  perf_begin: [
    ['attribution', {sessionToken: 'perf-1', mode: 'attribution', phases: false, livenessBaseline: 3, restartedPreviousSession: false}],
    [
      'a begin that restarted an open session',
      {sessionToken: 'perf-2', mode: 'timing', phases: false, livenessBaseline: 9, restartedPreviousSession: true},
    ],
  ],
  perf_end: [
    [
      'refused: nothing rendered',
      {
        sessionToken: 'perf-1',
        refused: true,
        mode: 'attribution',
        coverage: {framesDrawn: 1, livenessBaseline: 3, livenessFinal: 4, complete: false},
        reason: 'The engine rendered 1 frame',
      },
    ],
    [
      'timing mode: no counters',
      {
        sessionToken: 'perf-1',
        refused: false,
        mode: 'timing',
        env: {platform: 'web', isWeb: true, buildMode: 'profile', renderer: 'canvaskit', semanticsEnabled: true, phases: false},
        coverage: {framesDrawn: 10, framesSummarized: 9, framesOutsideSession: 1, complete: false, missing: ['wind']},
        summary: {
          durationMs: 1000,
          budgetMs: 16.7,
          frames: {
            count: 10,
            painted: 9,
            dropped: 1,
            overBudget: 0,
            overBudgetBuild: 0,
            overBudgetRaster: 0,
            buildMs: {p50: 1, p90: 2, p99: 3, worst: 4},
            rasterMs: {p50: 1, p90: 2, p99: 3, worst: 4},
          },
        },
        counters: null,
        insights: [],
        omitted: {},
      },
    ],
  ],
  perf_insight: [
    [
      'an insight',
      {
        sessionToken: 'perf-1',
        id: 'I1',
        severity: 'warn',
        title: 'Frames over budget',
        summary: 'x',
        detail: {worstFrames: []},
        estimatedSavingsMs: 2,
        nextStep: 'y',
      },
    ],
  ],
  press_key: [
    ['pressed', {ok: true, key: 'Enter'}],
    ['with the snapshot', {ok: true, key: 'Tab', snapshot: '- textbox "Email" [ref=e1]'}],
  ],
  reset_overlays: [
    ['a clean tree', {popped: 0, escaped: false, dismissTapped: false}],
    ['work done', {popped: 1, escaped: true, dismissTapped: true}],
  ],
  right_click: [['right-clicked', {ref: 'e5'}]],
  scroll: [
    ['scrolled', {scrolled: true, finalOffset: 300, effect: {changed: true, before: 0, after: 300}}],
    [
      'intoView, no Scrollable around the ref: no offsets at all',
      {scrolled: false, finalOffset: null, effect: {kind: 'scrollOffset', changed: false, before: null, after: null}},
    ],
    ['a list already at its edge', {scrolled: false, finalOffset: 0, effect: {changed: false, before: 0, after: 0}}],
  ],
  select_option: [
    ['selected', {selected: true, value: 'b', effect: {verified: true, value: 'b'}}],
    ['the parent refused it', {selected: true, value: 'b', effect: {verified: false, value: 'a'}}],
  ],
  set_checkbox: [
    ['toggled', {ref: 'e4', previousValue: false, value: true, toggled: true, effect: {verified: true, before: false, after: true}}],
    ['a mixed checkbox', {ref: 'e4', previousValue: null, value: true, toggled: true, effect: {verified: true, before: null, after: true}}],
    ['already matched', {ref: 'e4', previousValue: true, value: true, toggled: false, effect: {verified: true, before: true, after: true}}],
  ],
  snap: [
    ['clean', {snapshot: '- button "Go" [ref=e1]', groupId: 'snapshot-1700000000000'}],
    [
      'with render errors',
      {
        snapshot: '- button "Go" [ref=e1]',
        groupId: 'snapshot-1700000000000',
        renderErrors: {
          count: 4,
          recent: [{type: 'FlutterError', message: 'Incorrect use of ParentDataWidget.'}],
          hint: 'Run tapir:exceptions for full messages + stack traces.',
        },
      },
    ],
  ],
  tap: [
    ['no observable change', {ref: 'e5', effect: {kind: 'treeChanged', changed: false}}],
    ['until not matched', {ref: 'e5', effect: {kind: 'treeChanged', changed: true}, untilMatched: false}],
    [
      'retargeted on a merge boundary',
      {
        ref: 'e5',
        effect: {kind: 'treeChanged', changed: true},
        retargeted: {from: {x: 1, y: 1}, to: {x: 2, y: 2}, ownerRect: {left: 0, top: 0, width: 4, height: 4}, centreHandled: true},
      },
    ],
    [
      'not safe to retarget',
      {
        ref: 'e5',
        effect: {kind: 'treeChanged', changed: false},
        tapPointOutsideOwner: {ownerRect: {left: 0, top: 0, width: 4, height: 4}, point: {x: 9, y: 9}},
      },
    ],
    ['a relocated ref', {ref: 'e5', effect: {kind: 'treeChanged', changed: true}, reresolved: ['e5']}],
  ],
  triple_click: [['clicked', {ref: 'e5'}]],
  type: [
    ['typed, no ref', {text: 'a\nb', effect: textEffect(true, 'a\nb')}],
    ['with checks', {text: 'x', effect: textEffect(false, ''), checks: {unverified: ['occlusion']}}],
  ],
  wait: [
    ['matched', {matched: true, elapsedMs: 12}],
    ['timeout is a normal answer', {matched: false, reason: 'timeout'}],
  ],
  wait_for_network_idle: [['idle', {matched: true, idleAchievedMs: 500}]],
}

const SCREENSHOT: Array<[string, Record<string, unknown>]> = [
  ['an image', {format: 'jpeg', base64: 'AAAA', width: 1, height: 1}],
  ['a woken window', {format: 'png', base64: 'AAAA', width: 1, height: 1, framesForced: true}],
]

const checked = VERBS.filter((verb) => verb.dispatch.startsWith('ext.tapir.') && 'result' in verb)

describe("the typed checks of the app's answers accept every shape the reference documents", () => {
  it('has documented answers for every verb whose answer is checked', () => {
    expect(checked.map((verb) => verb.name).sort()).toEqual(Object.keys(DOCUMENTED).sort())
  })

  for (const verb of checked) {
    const shape = (verb as unknown as {result: Shape<unknown>}).result
    for (const [label, answer] of DOCUMENTED[verb.name] ?? []) {
      it(`${verb.name}: ${label}`, () => {
        expect(readAs(shape, answer)).toEqual({value: expect.anything()})
      })
    }
  }

  for (const [label, answer] of SCREENSHOT) {
    it(`screenshot: ${label}`, () => {
      expect(readAs(screenshotAnswer, answer)).toEqual({value: expect.anything()})
    })
  }
})
