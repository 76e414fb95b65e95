import {readFileSync} from 'node:fs'
import {connect, type Socket} from 'node:net'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {BIN, ROOT} from '../helpers/cli.js'
import {alive, childrenOf, flutterProject, sleep, waitFor, type Session} from '../helpers/flutter-project.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {canUnshare, inPidNamespace} from '../helpers/pid-namespace.js'

// The supervisor that runs flutter for `tapir start --device=<id>` against what happens around it:
// a start that is interrupted, clients that misbehave, a flutter that announces a bad address.

expectNoProcessLeft()

const HOLD_SUPERVISOR = join(ROOT, 'test', 'fixtures', 'hold-supervisor', 'hold.mjs')

/** What a PID namespace lists of its own processes: everything but the shell and ps themselves. */
const psLines = (text: string) => text.split('\n').filter((line) => line.trim() !== '' && !/^\s*\d+ (sh -c|ps -e)/.test(line))

describe.skipIf(!canUnshare)('an interrupted tapir start, in a throwaway PID namespace', () => {
  // The script runs as pid 1 of its namespace: `ps -e` there lists only what this start began.
  const interrupted = (signal: string) => `
    node "${BIN}" start --device=macos 2>"$DIR/start.err" & S=$!
    n=0; until grep -qs 'Still working' "$DIR/state.flutter.log" || [ $n -ge 1200 ]; do sleep 0.05; n=$((n+1)); done
    [ $n -ge 1200 ] && { echo "flutter printed no progress; start said:"; cat "$DIR/start.err"; }
    kill -${signal} $S; wait $S; echo "start exit=$?"
    sleep 1
    echo "--- ps after the interruption"; ps -e -o pid=,args=
    echo "--- start again"; node "${BIN}" start --device=macos --boot-timeout=5 2>&1; echo "again exit=$?"
    echo "--- stop"; node "${BIN}" stop; echo "stop exit=$?"
    sleep 0.5
    echo "--- ps after stop"; ps -e -o pid=,args=
  `

  it.each(['KILL', 'INT', 'TERM', 'HUP'])(
    'SIG%s while a chatty flutter boots: the supervisor lives on, and stop ends it, flutter and the app',
    async (signal) => {
      const p = flutterProject()
      try {
        // The build never ends, and flutter prints every 2 ms: the supervisor must outlive the watcher it loses.
        const result = await inPidNamespace(
          interrupted(signal),
          p.env({DIR: p.dir.path, FAKE_FLUTTER_CHATTY: '2', FAKE_FLUTTER_BUILD: 'hang'}),
          150_000,
        )
        const [, afterInterrupt = '', again = '', stop = '', afterStop = ''] = result.stdout.split(/^--- .*$/m)
        // The whole transcript on failure: this test once failed at a load average of 16, unexplained.
        expect(afterInterrupt, result.stdout).toMatch(/dist\/lib\/flutter\/supervisor\.js /)
        expect(afterInterrupt).toMatch(/fake-flutter\/flutter run --machine -d macos/)
        // The session names the supervisor: a second start does not record over it.
        expect(again.trim().split('\n')).toEqual([
          expect.stringMatching(/^✗ An app tapir started is still running for this project \(pid \d+\)\. Run `tapir stop` first\.$/),
          'again exit=1',
        ])
        expect(stop).toMatch(/^✓ Asked flutter run to stop the app \(app\.stop\)$/m)
        expect(stop).toMatch(/^✓ Stopped supervisor pid=\d+$/m)
        expect(stop).toMatch(/^stop exit=0$/m)
        expect(psLines(afterStop), 'left in the namespace').toEqual([])
        expect(p.session()).toBeUndefined()
        expect(p.socketFolders()).toEqual([])
        if (signal !== 'KILL') {
          const stderr = readFileSync(join(p.dir.path, 'start.err'), 'utf8')
          expect(result.stdout).toMatch(/^start exit=1$/m)
          expect(stderr.trimEnd().split('\n').at(-1)).toMatch(
            /^✗ Interrupted while the app was starting\. flutter run goes on under tapir's supervisor \(pid \d+\), but this session will not learn its VM Service address: run `tapir stop` to end it, then `tapir start` again\.$/,
          )
        }
      } finally {
        p.dir.remove()
      }
    },
    160_000,
  )
})

/** A client of the supervisor's socket, as tapir's own would be, or worse. */
function client(socketPath: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath)
    socket.once('connect', () => resolve(socket))
    socket.once('error', reject)
  })
}

describe('clients of the supervisor that misbehave never end it', () => {
  let p: ReturnType<typeof flutterProject>
  let session: Session
  beforeAll(async () => {
    p = flutterProject()
    const start = await p.run(['start', '--device=linux'], {FAKE_FLUTTER_CHATTY: '2'})
    expect(start.exitCode, start.stderr).toBe(0)
    session = p.session()!
  }, 60_000)
  afterAll(async () => {
    await p.run(['stop'])
    p.dir.remove()
  })

  it('a reset, a watcher that never reads, an endless line and garbage: the supervisor answers after each', async () => {
    const supervisor = session.processes.supervisor!.pid
    const socketPath = session.supervisorSocket!
    const misbehaviours: Array<[string, () => Promise<void>]> = [
      [
        'a watcher that closes at once',
        async () => {
          const socket = await client(socketPath)
          socket.write('{"op":"watch"}\n')
          await sleep(50)
          socket.destroy()
        },
      ],
      [
        'a watcher that goes away with output unread',
        async () => {
          const socket = await client(socketPath)
          socket.pause()
          socket.write('{"op":"watch"}\n')
          await sleep(300)
          socket.destroy()
        },
      ],
      [
        'a client gone in the middle of a request',
        async () => {
          const socket = await client(socketPath)
          socket.write('{"op":"resta')
          await sleep(20)
          socket.destroy()
        },
      ],
      [
        'a request line that never ends',
        async () => {
          const socket = await client(socketPath)
          socket.on('error', () => {})
          socket.write('x'.repeat(4 * 1024 * 1024))
          await sleep(200)
          socket.destroy()
        },
      ],
      [
        'lines that are not requests',
        async () => {
          const socket = await client(socketPath)
          socket.on('error', () => {})
          socket.write('not json\n{"op":"nope"}\n[1,2]\n')
          await sleep(100)
          socket.destroy()
        },
      ],
    ]
    for (const [what, misbehave] of misbehaviours) {
      await misbehave()
      await sleep(200)
      expect(alive(supervisor), `the supervisor after ${what}`).toBe(true)
      const reload = await p.run(['reload'])
      expect(reload.exitCode, `reload after ${what}: ${reload.stderr}`).toBe(0)
    }
  }, 60_000)

  it('stop then ends the supervisor, flutter and the app, and removes the socket folder', async () => {
    const supervisor = session.processes.supervisor!.pid
    const tree = [supervisor, ...childrenOf(supervisor).flatMap((pid) => [pid, ...childrenOf(pid)])]
    expect(tree).toHaveLength(3)
    expect(p.socketFolders()).toHaveLength(1)
    const stop = await p.run(['stop'])
    expect(stop.exitCode, stop.stderr).toBe(0)
    for (const pid of tree) expect(alive(pid), `pid ${pid}`).toBe(false)
    expect(p.socketFolders()).toEqual([])
  }, 30_000)
})

describe.skipIf(!canUnshare)('the socket folder of a supervisor that was killed', () => {
  it('is removed by stop, which finds the supervisor gone', async () => {
    const p = flutterProject()
    try {
      const script = `
        node "${BIN}" start --device=linux >/dev/null 2>"$TMPDIR/../start.err"; echo "start exit=$?"
        kill -KILL $(node -p "JSON.parse(require('fs').readFileSync(process.env.TAPIR_STATE_FILE)).processes.supervisor.pid")
        sleep 0.5
        ls "$TMPDIR" | grep -c tapir-run-
        node "${BIN}" stop; echo "stop exit=$?"
        ls "$TMPDIR" | grep -c tapir-run-
      `
      const result = await inPidNamespace(script, p.env(), 100_000)
      expect(result.stdout.split('\n'), readFileSync(join(p.dir.path, 'start.err'), 'utf8')).toEqual([
        'start exit=0',
        '1',
        expect.stringMatching(/^✓ (app pid=\d+ is no longer running|Stopped app pid=\d+)$/),
        expect.stringMatching(/^✓ supervisor pid=\d+ is no longer running$/),
        expect.stringMatching(/^✓ Removed session /),
        'stop exit=0',
        '0',
      ])
    } finally {
      p.dir.remove()
    }
  }, 120_000)
})

describe('flutter announces a VM Service address tapir cannot use', () => {
  it.each([
    ['not a URI at all', 'not a uri'],
    ['another scheme', 'ftp://127.0.0.1:1/AbCd=/'],
    ['no host', 'http://'],
    ['a file URI', 'file:///tmp/AbCd=/'],
  ])(
    '%s: a clear error, no stack trace, and nothing left behind',
    async (_what, uri) => {
      const p = flutterProject()
      try {
        const result = await p.run(['start', '--device=linux'], {FAKE_FLUTTER_VM_URI: uri})
        expect(result.exitCode, result.stderr).toBe(1)
        expect(result.stderr.split('\n').at(-1)).toMatch(
          /^✗ flutter run announced a VM Service address tapir cannot use \(not an http:\/\/ or ws:\/\/ URI with a host\); see .*state\.flutter\.log\. Nothing was left running\.$/,
        )
        expect(result.stderr).not.toMatch(/^\s+at /m)
        expect(result.stderr.length).toBeLessThan(1000)
        expect(p.session()).toBeUndefined()
        expect(p.socketFolders()).toEqual([])
      } finally {
        p.dir.remove()
      }
    },
    60_000,
  )

  it('none at all, then "started": says so, and leaves nothing behind', async () => {
    const p = flutterProject()
    try {
      const result = await p.run(['start', '--device=linux'], {FAKE_FLUTTER_VM_URI: ''})
      expect(result.exitCode, result.stderr).toBe(1)
      expect(result.stderr.split('\n').at(-1)).toMatch(
        /^✗ flutter run reported the app started without a VM Service address; see .*\. Nothing was left running\.$/,
      )
      expect(p.session()).toBeUndefined()
      expect(p.socketFolders()).toEqual([])
    } finally {
      p.dir.remove()
    }
  }, 60_000)
})

describe('--boot-timeout within a year', () => {
  it.each(['linux', 'sim'])('more than a year is refused on --device=%s before anything starts', async (device) => {
    const p = flutterProject()
    try {
      for (const seconds of [31536001, 9999999999]) {
        const result = await p.run(['start', `--device=${device}`, `--boot-timeout=${seconds}`])
        expect(result).toMatchObject({
          exitCode: 1,
          stdout: '',
          stderr: `✗ --boot-timeout must be at most 31536000 s, a year (got ${seconds}).`,
        })
      }
      expect(p.session()).toBeUndefined()
    } finally {
      p.dir.remove()
    }
  })

  it('2147483 s is taken: the app starts', async () => {
    const p = flutterProject()
    try {
      const result = await p.run(['start', '--device=linux', '--boot-timeout=2147483'])
      expect(result.exitCode, result.stderr).toBe(0)
      expect((await p.run(['stop'])).exitCode).toBe(0)
    } finally {
      p.dir.remove()
    }
  }, 60_000)
})

describe('start and restart wait for the supervisor to say it is ready', () => {
  it('a supervisor held back 1.5 s before it listens (its socket file already there): start waits, then follows it', async () => {
    const p = flutterProject()
    const held = {NODE_OPTIONS: `--import=${HOLD_SUPERVISOR}`, HOLD_SUPERVISOR_MS: '1500'}
    try {
      const began = Date.now()
      const start = await p.run(['start', '--device=linux'], held)
      expect(start.exitCode, start.stderr).toBe(0)
      expect(Date.now() - began).toBeGreaterThan(1500)
      const restart = await p.run(['restart'], held)
      expect(restart.exitCode, restart.stderr).toBe(0)
      expect(restart.stdout).toMatch(/^✓ flutter run pid=\d+ \(supervisor pid=\d+\)$/m)
      expect((await p.run(['tapir:snap'])).stdout).toMatch(/^- heading "Sign in"/)
      expect((await p.run(['stop'])).exitCode).toBe(0)
      expect(p.socketFolders()).toEqual([])
    } finally {
      p.dir.remove()
    }
  }, 90_000)

  it('a supervisor that never gets ready: start gives up at the boot deadline, and nothing is left', async () => {
    const p = flutterProject()
    try {
      const start = await p.run(['start', '--device=linux', '--boot-timeout=2'], {
        NODE_OPTIONS: `--import=${HOLD_SUPERVISOR}`,
        HOLD_SUPERVISOR_MS: '60000',
      })
      expect(start.exitCode, start.stderr).toBe(1)
      expect(start.stderr).toMatch(
        /^✗ The supervisor for flutter run was not ready within the boot deadline; see .*state\.flutter\.log\. Nothing was left running\.$/,
      )
      expect(p.session()).toBeUndefined()
      await waitFor(() => p.socketFolders().length === 0, 3000)
      expect(p.socketFolders()).toEqual([])
    } finally {
      p.dir.remove()
    }
  }, 60_000)
})
