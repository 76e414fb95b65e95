import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
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
    projects: [
      // Pure logic and the in-process sim: one process per worker for all of them, not one per
      // file (a fork per file was 40% of this tier's CPU time).
      {extends: true, test: {name: 'unit', isolate: false, include: ['test/{unit,sim,integration,commands}/**/*.test.ts']}},
      {
        extends: true,
        test: {name: 'source', include: ['test/**/*.test.ts'], exclude: ['test/e2e/**', 'test/{unit,sim,integration,commands}/**']},
      },
      // The e2e tier runs the built CLI, so it refuses to start against a stale dist/.
      {extends: true, test: {name: 'built', include: ['test/e2e/**/*.test.ts'], globalSetup: ['test/helpers/fresh-build.ts']}},
    ],
  },
})
