import {describe, expect, it} from 'vitest'
import {FaultKnobError, faultSpecsFromEnv, parseFaultKnobs} from '../../src/sim/fault-knobs.js'

describe('sim fault knobs', () => {
  it('maps every knob onto the sim faults, lifecycle and timed restart', () => {
    const plan = parseFaultKnobs([
      'latency=200',
      'drop-socket=getVM',
      'hang=ext.tapir.snap',
      'malformed=ext.tapir.tap',
      'paused-isolate',
      'lifecycle=hidden',
      'missing-extensions',
      'isolate-restart=1500',
      'perf-regression',
      'no-force-frames',
      'big-list=5000',
    ])
    expect(plan).toEqual({
      faults: {
        latencyMs: 200,
        dropSocketOn: 'getVM',
        hangOn: 'ext.tapir.snap',
        malformedOn: 'ext.tapir.tap',
        paused: true,
        extensionsMissing: true,
      },
      lifecycle: 'hidden',
      restartIsolateAfterMs: 1500,
      perfRegression: true,
      forceFrames: false,
      bigList: 5000,
    })
  })

  it('lets a later knob of the same name win', () => {
    expect(parseFaultKnobs(['latency=5', 'latency=0']).faults.latencyMs).toBe(0)
  })

  it('splits TAPIR_SIM_FAULTS on commas and spaces', () => {
    expect(faultSpecsFromEnv(' latency=5, hang=getVM  paused-isolate,')).toEqual(['latency=5', 'hang=getVM', 'paused-isolate'])
    expect(faultSpecsFromEnv(undefined)).toEqual([])
  })

  it.each([
    ['lag=5', /^Unknown fault knob "lag"; use one of latency=<ms>, /],
    ['latency', /^Fault knob "latency" needs a value; write it as latency=<ms>\.$/],
    ['latency=', /needs a value/],
    ['latency=-1', /^Fault knob latency=-1: give whole milliseconds from 0 to 600000, as in latency=200\.$/],
    ['latency=1.5', /whole milliseconds/],
    ['isolate-restart=600001', /whole milliseconds/],
    ['hang=ext tapir', /^Fault knob hang=ext tapir: give a VM Service method name, as in hang=ext\.tapir\.snap\.$/],
    ['lifecycle=asleep', /^Fault knob lifecycle=asleep: the lifecycle is one of hidden, paused, detached\.$/],
    ['big-list=0', /^Fault knob big-list=0: give a whole number of rows from 1 to 20000, as in big-list=5000\.$/],
    ['big-list=20001', /whole number of rows/],
    ['no-force-frames=yes', /^Fault knob "no-force-frames" takes no value; write it as no-force-frames\.$/],
    ['missing-extensions=true', /^Fault knob "missing-extensions" takes no value; write it as missing-extensions\.$/],
  ])('refuses %s in one line', (spec, message) => {
    expect(() => parseFaultKnobs([spec])).toThrow(FaultKnobError)
    expect(() => parseFaultKnobs([spec])).toThrow(message)
  })
})
