import {chmodSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {findChrome} from '../../src/lib/cdp/chrome-binary.js'
import {normalisePresetName, presetNamed} from '../../src/lib/cdp/presets.js'
import {tempDir} from '../helpers/cli.js'

describe('findChrome', () => {
  const dir = tempDir()
  const fake = (name: string): string => {
    const path = join(dir.path, name)
    writeFileSync(path, '#!/bin/sh\n')
    chmodSync(path, 0o755)
    return path
  }
  afterAll(() => dir.remove())

  it('takes TAPIR_CHROME_BIN first, then the usual names on PATH', () => {
    const named = fake('my-chrome')
    const onPath = fake('google-chrome')
    expect(findChrome({TAPIR_CHROME_BIN: named, PATH: dir.path}, 'aix')).toBe(named)
    expect(findChrome({PATH: dir.path}, 'aix')).toBe(onPath)
  })

  it('says how to point at a browser when none is found', () => {
    expect(() => findChrome({PATH: join(dir.path, 'empty')}, 'aix')).toThrow(
      /^No Chrome or Chromium found \(looked for chromium, .* on PATH and the usual install paths\)\. Install one, or set TAPIR_CHROME_BIN=\/path\/to\/chrome\.$/,
    )
  })
})

describe('device presets', () => {
  it('are found by a normalised name: case, _ and spaces, runs of -', () => {
    expect(normalisePresetName('  Pixel_8 ')).toBe('pixel-8')
    expect(normalisePresetName('iPhone  15--Pro')).toBe('iphone-15-pro')
    expect(presetNamed('IPAD_PRO 12.9')).toMatchObject({name: 'ipad-pro-12.9', width: 1024, height: 1366, dpr: 2})
    expect(presetNamed('pixel 5').userAgent).toBe(
      'Mozilla/5.0 (Linux; Android 13; Pixel 5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.6723.92 Mobile Safari/537.36',
    )
  })
})
