import {chmodSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {findChrome, installPaths} from '../../src/lib/cdp/chrome-binary.js'
import {normalisePresetName, presetNamed} from '../../src/lib/cdp/presets.js'
import {needsNoSandbox} from '../../src/lib/cdp/sandbox.js'
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

  it('takes TAPIR_CHROME_BIN first, then CHROME_PATH, then the usual names on PATH', () => {
    const named = fake('my-chrome')
    const common = fake('their-chrome')
    const onPath = fake('google-chrome')
    expect(findChrome({TAPIR_CHROME_BIN: named, CHROME_PATH: common, PATH: dir.path}, 'aix')).toBe(named)
    expect(findChrome({CHROME_PATH: common, PATH: dir.path}, 'aix')).toBe(common)
    expect(findChrome({PATH: dir.path}, 'aix')).toBe(onPath)
  })

  it('refuses a variable that names no executable rather than looking elsewhere', () => {
    expect(() => findChrome({CHROME_PATH: join(dir.path, 'nothing'), PATH: dir.path}, 'aix')).toThrow(
      `CHROME_PATH names ${join(dir.path, 'nothing')}, which is not an executable file. Point it at a Chrome or Chromium binary.`,
    )
  })

  it('says how to point at a browser when none is found', () => {
    expect(() => findChrome({PATH: join(dir.path, 'empty')}, 'aix')).toThrow(
      /^No Chrome or Chromium found \(looked for TAPIR_CHROME_BIN and CHROME_PATH, then chromium, .* on PATH, then the usual install paths\)\. Install one \(see https:\/\/www\.chromium\.org\/getting-involved\/download-chromium\/\), or point tapir at one: TAPIR_CHROME_BIN=\/path\/to\/chrome \(or CHROME_PATH\)\.$/,
    )
    // With the usual install command where there is one (Linux's: not testable on a machine that has one installed).
    for (const [platform, command] of [
      ['darwin', 'brew install --cask google-chrome'],
      ['win32', 'winget install Google.Chrome'],
    ] as const)
      expect(() => findChrome({PATH: join(dir.path, 'empty'), HOME: join(dir.path, 'empty')}, platform)).toThrow(
        `Install one (${command}), or`,
      )
  })
})

describe('where Chrome installs', () => {
  const dir = tempDir()
  afterAll(() => dir.remove())

  it('on Windows: Chrome, Chromium, Beta and Canary under the per-user and machine-wide program folders', () => {
    const paths = installPaths(
      {LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local', ProgramFiles: 'C:\\Program Files', 'PROGRAMFILES(X86)': 'C:\\Program Files (x86)'},
      'win32',
    )
    expect(paths).toContain('C:\\Users\\ada\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe')
    expect(paths).toContain('C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe')
    expect(paths).toContain('C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe')
    expect(paths).toContain('C:\\Users\\ada\\AppData\\Local\\Google\\Chrome SxS\\Application\\chrome.exe')
    expect(paths).toContain('C:\\Program Files\\Chromium\\Application\\chrome.exe')
  })

  it("on macOS: the app bundles in /Applications and the user's own ~/Applications", () => {
    const paths = installPaths({}, 'darwin', '/Users/ada')
    expect(paths[0]).toBe('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome')
    expect(paths).toContain('/Users/ada/Applications/Google Chrome.app/Contents/MacOS/Google Chrome')
    expect(paths).toContain('/Applications/Chromium.app/Contents/MacOS/Chromium')
    expect(paths).toContain('/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary')
  })

  it("on Linux: the user's menu entries first, then the packages' paths, snap and flatpak", () => {
    const home = join(dir.path, 'home')
    mkdirSync(join(home, 'apps', 'applications'), {recursive: true})
    writeFileSync(join(home, 'apps', 'applications', 'chromium.desktop'), '[Desktop Entry]\nExec=/opt/my chromium/chrome --flag %U\n')
    writeFileSync(join(home, 'apps', 'applications', 'other.desktop'), '[Desktop Entry]\nExec=/usr/bin/other\n')
    const paths = installPaths({XDG_DATA_HOME: join(home, 'apps'), XDG_DATA_DIRS: join(home, 'none')}, 'linux', home)
    expect(paths[0]).toBe('/opt/my')
    expect(paths).toContain('/opt/google/chrome/chrome')
    expect(paths).toContain('/snap/bin/chromium')
    expect(paths).toContain(join(home, '.local/share/flatpak/exports/bin/org.chromium.Chromium'))
    expect(paths).not.toContain('/usr/bin/other')
  })
})

describe('--no-sandbox', () => {
  const facts = {platform: 'linux' as const, uid: 1000, userNamespaces: true, setuidHelper: false}
  it('is added only on Linux when the sandbox cannot start: as root, or with no user namespaces and no setuid helper', () => {
    expect(needsNoSandbox(facts)).toBe(false)
    expect(needsNoSandbox({...facts, uid: 0})).toBe(true)
    expect(needsNoSandbox({...facts, userNamespaces: false})).toBe(true)
    expect(needsNoSandbox({...facts, userNamespaces: false, setuidHelper: true})).toBe(false)
    expect(needsNoSandbox({...facts, platform: 'darwin', uid: 0})).toBe(false)
    expect(needsNoSandbox({...facts, platform: 'win32', uid: undefined, userNamespaces: false})).toBe(false)
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
