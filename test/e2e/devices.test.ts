import {describe, expect, it} from 'vitest'
import {tapir} from '../helpers/cli.js'
import {PATH_WITH_FAKE} from '../helpers/flutter-project.js'

describe('tapir devices', () => {
  // flutter lists web-server only under --show-web-server-device (flutter_tools,
  // flutter_command_runner.dart runCommand); tapir start -d web-server runs it, so tapir asks for it.
  it('lists the sim, then flutter devices with web-server among them', async () => {
    const result = await tapir(['devices'], {env: {PATH: PATH_WITH_FAKE}})
    expect(result).toMatchObject({exitCode: 0, stderr: ''})
    expect(result.stdout.split('\n')).toEqual([
      'sim  tapir simulated app (no Flutter needed) (sim)',
      'linux  Linux (linux-x64)',
      'chrome  Chrome (web-javascript)',
      'web-server  Web Server (web-javascript)',
    ])
  })
})
