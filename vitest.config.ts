import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    disableConsoleIntercept: true,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    env: {
      FORCE_COLOR: '0',
      NO_COLOR: '1',
      // Anything but "test"/"development" makes oclif load dist/ instead of transpiling src/.
      NODE_ENV: 'tapir-test',
    },
  },
})
