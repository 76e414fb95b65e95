import {describe, expect, it} from 'vitest'
import {matchesTranscript, normalise, readmeBlocks, startsItsOwnApp, transcript} from '../helpers/readme-blocks.js'

describe('the README test harness', () => {
  it('classifies blocks by fence and marker, and refuses what it cannot place', () => {
    const blocks = readmeBlocks(
      [
        '<!-- readme-test: setup -->',
        '```sh',
        'npm ci',
        '```',
        '```console',
        '$ tapir stop',
        '✓ Nothing to stop',
        '```',
        '1. In a list:',
        '',
        '   <!-- readme-test: needs-flutter -->',
        '   ```sh',
        '   tapir start --device=macos',
        '   ```',
        '```yaml',
        '# perf/a.yaml',
        'name: a',
        '```',
      ].join('\n'),
    )
    expect(blocks.map((block) => [block.kind, block.note, block.line])).toEqual([
      ['setup', undefined, 3],
      ['console', undefined, 6],
      ['skipped', 'needs-flutter', 13],
      ['file', 'perf/a.yaml', 16],
    ])
    expect(blocks[2]!.body).toEqual(['tapir start --device=macos'])
    expect(() => readmeBlocks('```json\n{}\n```')).toThrow('README.md:2: a ```json block is neither run nor marked')
    expect(() => readmeBlocks('```json\n{}\n```', 'docs/mcp.md')).toThrow('docs/mcp.md:2: a ```json block')
    expect(() => readmeBlocks('```yaml\nname: a\n```')).toThrow('must name its file')
    expect(() => readmeBlocks('<!-- readme-test: maybe -->\n```sh\nls\n```')).toThrow('unknown marker')
  })

  it('reads a transcript as commands with the output under each, and knows which blocks start an app', () => {
    const [block] = readmeBlocks('```console\n$ tapir start --device=sim\n✓ sim pid=1\n$ tapir stop\n```')
    expect(transcript(block!)).toEqual([
      {command: 'tapir start --device=sim', expected: ['✓ sim pid=1']},
      {command: 'tapir stop', expected: []},
    ])
    expect(startsItsOwnApp(block!)).toBe(true)
    expect(startsItsOwnApp(readmeBlocks('```sh\nTAPIR_SIM_FAULTS=x tapir start --device=sim\n```')[0]!)).toBe(true)
    expect(startsItsOwnApp(readmeBlocks('```sh\ntapir tapir:snap\n```')[0]!)).toBe(false)
  })

  it('matches output line for line, … standing for any lines, and nothing else', () => {
    expect(matchesTranscript(['a', 'b'], ['a', 'b'])).toBe(true)
    expect(matchesTranscript(['a', 'b'], ['a'])).toBe(false)
    expect(matchesTranscript(['a'], ['a', 'b'])).toBe(false)
    expect(matchesTranscript(['a', 'x', 'y', 'b'], ['a', '…', 'b'])).toBe(true)
    expect(matchesTranscript(['a', 'b'], ['a', '…', 'b'])).toBe(true)
    expect(matchesTranscript(['a', 'x'], ['a', '…', 'b'])).toBe(false)
    expect(matchesTranscript(['a', 'x'], ['b', '…'])).toBe(false)
  })

  it('makes pids, ports, session folders, durations and sizes the same on both sides, and only those', () => {
    const printed = normalise(
      '✓ sim pid=48213 at ws://127.0.0.1:40125/***/ws\n✓ state=/tmp/home/.tapir/sessions/3f1c2a9b7e10/state.json\n✓ Wrote 1106 bytes (1.1 KB, png) to /tmp/work/a.png in 23 ms',
      '/tmp/work',
      '/tmp/home',
    )
    expect(printed).toBe(
      '✓ sim pid=<n> at ws://127.0.0.1:<port>/***/ws\n✓ state=~/.tapir/sessions/<hash>/state.json\n✓ Wrote <n> bytes (<n> KB, png) to <work>/a.png in <n> ms',
    )
    expect(normalise('✓ state=/home/ada/.tapir/sessions/aaaaaaaaaaaa/state.json /home/ada/app/a.png', '/tmp/work', '/tmp/home')).toBe(
      '✓ state=~/.tapir/sessions/<hash>/state.json <work>/a.png',
    )
    expect(normalise('- button "Pause" [ref=e12]', '/tmp/work', '/tmp/home')).toBe('- button "Pause" [ref=e12]')
  })
})
