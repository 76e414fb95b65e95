import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    disableConsoleIntercept: true,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most test time is spent waiting on spawned CLIs, sims and browsers, not computing: vitest's
    // default of one worker per core less one leaves a 2-core machine at load 1.5 for 11 minutes.
    // Three workers ran the suite in 6 on the same machine.
    maxWorkers: 3,
    env: {
      FORCE_COLOR: '0',
      NO_COLOR: '1',
      // Anything but "test"/"development" makes oclif load dist/ instead of transpiling src/.
      NODE_ENV: 'tapir-test',
    },
  },
})
