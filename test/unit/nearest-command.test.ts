import {describe, expect, it} from 'vitest'
import {nearestCommand} from '../../src/oclif/nearest-command.js'

const IDS = ['start', 'status', 'stop', 'restart', 'hot-restart', 'tapir:snap', 'tapir:tap', 'tapir:perf_run', 'tapir:hot_reload_and_snap']

describe('nearestCommand', () => {
  it.each([
    ['snap', 'tapir:snap'],
    ['SNAP', 'tapir:snap'],
    ['tapir:snpa', 'tapir:snap'],
    ['perf-run', 'tapir:perf_run'],
    ['hot_restart', 'hot-restart'],
    ['statsu', 'status'],
    ['tap', 'tapir:tap'],
  ])('%s means %s', (typed, meant) => {
    expect(nearestCommand(typed, IDS)).toBe(meant)
  })

  it.each(['xyz', 'deploy', 'http://127.0.0.1:8181/AbCdEfGh12s=/', '', 'x'.repeat(200)])('suggests nothing for %s', (typed) => {
    expect(nearestCommand(typed, IDS)).toBeUndefined()
  })
})
