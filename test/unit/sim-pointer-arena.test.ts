import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {pointerEventOf, pointerEvents, POINTER_ID, RENDERING_LIBRARY} from '../../src/lib/zero/dart.js'
import {AppModel} from '../../src/sim/app/app-model.js'
import {evaluateInFlutter} from '../../src/sim/app/evaluate/flutter-evaluate.js'
import {centre} from '../../src/sim/app/geometry.js'

// The sim's gesture arena takes tapir's pointer expressions as DoubleTapGestureRecognizer
// (flutter/flutter gestures/multitap.dart) takes real taps: a second tap counts only after
// kDoubleTapMinTime (40 ms) from the first down and within kDoubleTapTimeout (300 ms) of its up
// (gestures/constants.dart); a widget that takes double taps gets a single tap only once the
// timeout passes.

describe('the sim gesture arena, through the pointer expressions tapir sends', () => {
  let clock = 0
  let app: AppModel
  beforeEach(() => {
    vi.useFakeTimers()
    clock = 0
    app = new AppModel(() => clock)
    app.state.fields.email = 'ada@example.com'
    app.state.fields.password = 'hunter22'
    app.on.signIn()
    app.pump()
  })
  afterEach(() => {
    app.arena.reset()
    vi.useRealTimers()
  })

  const apiRow = () =>
    [...app.frame.byPath.values()].find((m) => m.ui.semantics?.label?.startsWith('API') === true && m.ui.onDoubleTap !== undefined)
  const tapAfter = (ms: number, pointer: number) => {
    clock += ms
    vi.advanceTimersByTime(ms)
    const {x, y} = centre(apiRow()!.ui.rect)
    // A tap's down and up in one evaluate, as tapir sends them: the cascade answers the binding.
    const tap = pointerEvents(
      (['PointerDownEvent', 'PointerUpEvent'] as const).map((kind) => pointerEventOf(kind, x, y, undefined, pointer)),
    )
    expect(evaluateInFlutter(app, tap.source, tap.library)).toMatchObject({kind: 'value', value: {className: 'GestureBinding'}})
  }
  const favourite = () => app.state.monitors?.find((m) => m.name === 'API')?.favourite
  const detailOpen = () => app.state.root.kind === 'shell' && app.state.root.shell.detail !== null

  it('two taps 60 ms apart are a double tap: the row marks a favourite and never opens', () => {
    expect(RENDERING_LIBRARY).toBe('package:flutter/src/rendering/binding.dart')
    expect(apiRow()).toBeDefined()
    tapAfter(0, POINTER_ID)
    tapAfter(60, POINTER_ID + 1)
    vi.advanceTimersByTime(1000)
    expect(favourite()).toBe(true)
    expect(detailOpen()).toBe(false)
  })

  it('one tap is held for kDoubleTapTimeout, then opens the row', () => {
    tapAfter(0, POINTER_ID)
    vi.advanceTimersByTime(299)
    expect(detailOpen()).toBe(false)
    vi.advanceTimersByTime(1)
    expect(detailOpen()).toBe(true)
  })

  it('a second tap sooner than kDoubleTapMinTime restarts the count: the first tap wins and opens the row', () => {
    tapAfter(0, POINTER_ID)
    tapAfter(20, POINTER_ID + 1)
    expect(detailOpen()).toBe(true)
    expect(favourite()).toBe(false)
  })

  it('a second tap later than kDoubleTapTimeout is no double tap', () => {
    tapAfter(0, POINTER_ID)
    tapAfter(350, POINTER_ID + 1)
    expect(detailOpen()).toBe(true)
    expect(favourite()).toBe(false)
  })
})
