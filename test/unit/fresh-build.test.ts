import {mkdirSync, utimesSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, expect, test} from 'vitest'
import {tempDir} from '../helpers/cli.js'
import {staleBuild} from '../helpers/fresh-build.js'

let dir: ReturnType<typeof tempDir>
afterEach(() => dir.remove())

function file(path: string, secondsAgo: number): void {
  mkdirSync(join(dir.path, path, '..'), {recursive: true})
  writeFileSync(join(dir.path, path), '')
  const when = Date.now() / 1000 - secondsAgo
  utimesSync(join(dir.path, path), when, when)
}

test('a dist/ built after every source stands for src/', () => {
  dir = tempDir()
  file('src/lib/a.ts', 100)
  file('src/b.ts', 90)
  file('dist/lib/a.js', 50)
  file('dist/tapir.cjs', 40)
  expect(staleBuild(dir.path)).toBeUndefined()
})

test('a source edited after the build names itself and the fix', () => {
  dir = tempDir()
  file('dist/lib/a.js', 50)
  file('src/lib/a.ts', 100)
  file('src/lib/edited.ts', 10)
  expect(staleBuild(dir.path)).toBe(
    'dist/ is older than src/lib/edited.ts: run `npm run build` first (the e2e tests run the built CLI, not src/)',
  )
})

test('a build that left an old file behind is stale too', () => {
  dir = tempDir()
  file('src/a.ts', 100)
  file('dist/left-over.js', 200)
  file('dist/a.js', 50)
  expect(staleBuild(dir.path)).toMatch(/^dist\/ is older than src\/a\.ts/)
})

test('no dist/ at all says so', () => {
  dir = tempDir()
  file('src/a.ts', 100)
  expect(staleBuild(dir.path)).toMatch(/^dist\/ is missing: run `npm run build` first/)
})
