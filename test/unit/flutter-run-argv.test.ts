import {describe, expect, it} from 'vitest'
import {flutterRunArgv, tapirBringsChrome} from '../../src/lib/runtime/flutter-app.js'

const base = {dds: true, extraArgs: []}

describe('flutterRunArgv: the flutter run command line for each web start', () => {
  it("--device=chrome --cdp-port: flutter's own Chrome, headless, with its DevTools on that port", () => {
    const options = {...base, device: 'chrome', cdpPort: 9333}
    expect(flutterRunArgv('flutter', options)).toEqual([
      'flutter',
      'run',
      '--machine',
      '-d',
      'chrome',
      '--web-browser-debug-port',
      '9333',
      '--web-run-headless',
    ])
    expect(tapirBringsChrome(options)).toBe(false)
  })

  it('--device=web-server --cdp-port: flutter only serves; tapir brings the browser', () => {
    const options = {...base, device: 'web-server', cdpPort: 9333, webPort: 8080}
    expect(flutterRunArgv('flutter', options)).toEqual(['flutter', 'run', '--machine', '-d', 'web-server', '--web-port', '8080'])
    expect(tapirBringsChrome(options)).toBe(true)
  })

  it('--device=chrome alone: no port asked for, and --no-dds passes through', () => {
    expect(flutterRunArgv('flutter', {...base, device: 'chrome', dds: false})).toEqual([
      'flutter',
      'run',
      '--machine',
      '-d',
      'chrome',
      '--no-dds',
    ])
  })
})
