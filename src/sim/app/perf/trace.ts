import type {ClosedSession} from './session.js'
import {blocksIn, gapsOf} from './stats.js'
import {BUDGET_MS, ms2, slowerThreadMs} from './types.js'

const PID = 1
const UI_TID = 1
const RASTER_TID = 2

const us = (ms: number): number => Math.round(ms * 1000)

/**
 * The session's frames as Chrome Trace Event JSON: per frame a "Frame N" span on the UI thread
 * holding "Build" and, in attribution mode, one span per block laid end to end by self time; a
 * "Raster" span on the raster thread after the build; an instant event at every frameNumber gap.
 */
export function chromeTrace(session: ClosedSession): Record<string, unknown> {
  const events: Record<string, unknown>[] = [
    {name: 'process_name', ph: 'M', pid: PID, tid: UI_TID, args: {name: 'Monitors (tapir-sim)'}},
    {name: 'thread_name', ph: 'M', pid: PID, tid: UI_TID, args: {name: 'ui'}},
    {name: 'thread_name', ph: 'M', pid: PID, tid: RASTER_TID, args: {name: 'raster'}},
  ]
  for (const frame of session.frames) {
    const start = frame.startUs
    const build = us(frame.buildMs)
    const raster = us(frame.rasterMs)
    events.push({
      name: `Frame ${frame.frameNumber}`,
      cat: 'frame',
      ph: 'X',
      pid: PID,
      tid: UI_TID,
      ts: start,
      dur: build + raster,
      args: {
        frameNumber: frame.frameNumber,
        buildMs: ms2(frame.buildMs),
        rasterMs: ms2(frame.rasterMs),
        overBudget: slowerThreadMs(frame) > BUDGET_MS,
      },
    })
    events.push({name: 'Build', cat: 'frame', ph: 'X', pid: PID, tid: UI_TID, ts: start, dur: build})
    if (session.mode === 'attribution') {
      let at = start
      for (const block of blocksIn(frame, session.phases)) {
        const dur = us(block.selfMs)
        events.push({
          name: block.name,
          cat: 'block',
          ph: 'X',
          pid: PID,
          tid: UI_TID,
          ts: at,
          dur,
          args: {count: block.count, selfMs: ms2(block.selfMs)},
        })
        at += dur
      }
    }
    events.push({name: 'Raster', cat: 'frame', ph: 'X', pid: PID, tid: RASTER_TID, ts: start + build, dur: raster})
  }
  for (const gap of gapsOf(session.frames)) {
    const after = session.frames.find((f) => f.frameNumber === gap.after)!
    events.push({
      name: 'Dropped frames',
      cat: 'frame',
      ph: 'i',
      s: 'p',
      pid: PID,
      tid: UI_TID,
      ts: after.startUs + us(slowerThreadMs(after)),
      args: gap,
    })
  }
  return {
    traceEvents: events,
    displayTimeUnit: 'ms',
    otherData: {
      sessionToken: session.token,
      mode: session.mode,
      phases: session.phases,
      budgetMs: BUDGET_MS,
      frames: session.frames.length,
      platform: session.platform,
      producer: 'tapir-sim',
    },
  }
}
