import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {flutterProject} from '../helpers/flutter-project.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {mcpClientIn} from '../helpers/mcp.js'

type Answer = {isError?: boolean; content: Array<{type: string; text?: string}>}
const textOf = (result: Answer) => result.content.find((block) => block.type === 'text')!.text!
/** tapir_snap answers the app's JSON; the YAML is its snapshot. */
const yamlOf = (result: Answer) => (JSON.parse(textOf(result)) as {snapshot: string}).snapshot

expectNoProcessLeft()

describe('an agent with only MCP drives a debug app with no package (tapir_start with package=none)', () => {
  const p = flutterProject()
  let client: Client
  const call = async (name: string, args: object = {}) =>
    (await client.callTool({name, arguments: args as Record<string, unknown>}, undefined, {timeout: 120_000})) as Answer
  beforeAll(async () => {
    client = await mcpClientIn(p)
  })
  afterAll(async () => {
    await call('tapir_stop')
    await client.close()
    p.dir.remove()
  })

  it('says zero-install in its instructions', () => {
    expect(client.getInstructions()).toMatch(/driven zero-install .*tapir install adds the package/)
  })

  it('starts the sim with no package, signs in, opens a monitor and goes back, through refs', async () => {
    const started = await call('tapir_start', {device: 'sim', faults: ['package=none']})
    expect(started.isError, textOf(started)).toBeFalsy()
    expect(JSON.parse(textOf(await call('tapir_status')))).toMatchObject({
      answering: true,
      tapir: false,
      zeroInstall: expect.stringMatching(/^zero-install: /),
    })
    const signIn = yamlOf(await call('tapir_snap', {interactiveOnly: true}))
    expect(signIn).toContain('- textbox "Email" [ref=e2]')
    expect((await call('tapir_fill', {ref: 'e2', text: 'ada@example.com'})).isError).toBeFalsy()
    expect((await call('tapir_fill', {ref: 'e4', text: 'hunter22'})).isError).toBeFalsy()
    expect((await call('tapir_tap', {ref: 'e6'})).isError).toBeFalsy()
    const monitors = yamlOf(await call('tapir_snap', {interactiveOnly: true}))
    const api = /- button "API" \[ref=(e\d+)\]/.exec(monitors)![1]!
    expect((await call('tapir_tap', {ref: api})).isError).toBeFalsy()
    const detail = yamlOf(await call('tapir_snap', {interactiveOnly: true}))
    expect(detail).toContain('- heading "API"')
    expect((await call('tapir_tap', {ref: /- button "Back" \[ref=(e\d+)\]/.exec(detail)![1]!})).isError).toBeFalsy()
    expect(yamlOf(await call('tapir_snap', {interactiveOnly: true}))).toContain('- heading "Monitors"')
    // A double tap through the tool, as on the CLI: the row marks a favourite and stays shut.
    expect((await call('tapir_dblclick', {ref: api})).isError).toBeFalsy()
    const favourite = yamlOf(await call('tapir_snap', {interactiveOnly: true}))
    expect(favourite).toContain(`- button "API ★" [ref=${api}]`)
    expect(favourite).toContain('- heading "Monitors"')
    const shot = (await call('tapir_screenshot')) as Answer & {content: Array<{type: string; mimeType?: string; data?: string}>}
    expect(shot.isError, textOf(shot)).toBeFalsy()
    expect(shot.content.find((block) => block.type === 'image')).toMatchObject({
      mimeType: 'image/png',
      data: expect.stringMatching(/^iVBORw0KGgo/),
    })
    const console = await call('tapir_console')
    expect(console.isError).toBe(true)
    expect(textOf(console)).toMatch(
      /^console on an app with no package reads .*only DDS keeps: run the app with DDS \(tapir_start with dds: true, .*\), or run tapir install\./,
    )
    const refused = await call('tapir_press_key', {key: 'Enter'})
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toMatch(/^tapir_press_key has no zero-install form: .*; run tapir install to add the package\./)
  })

  it('the same flow through tapir_run and tapir_wait_for on a default sim whose ext.tapir.* is hidden', async () => {
    expect((await call('tapir_stop')).isError).toBeFalsy()
    const started = await call('tapir_start', {device: 'sim', faults: ['missing-extensions']})
    expect(started.isError, textOf(started)).toBeFalsy()
    expect(JSON.parse(textOf(await call('tapir_status')))).toMatchObject({
      tapir: false,
      zeroInstall: expect.stringMatching(/^zero-install: /),
    })
    const run = await call('tapir_run', {
      steps: [
        'find --text=Email --as=email',
        'fill --ref=@email --text=ada@example.com',
        'find --semanticsLabel=Password --as=password',
        'fill --ref=@password --text=hunter22',
        'snap --interactiveOnly --grep=Sign',
        'tap --ref=e6',
        'wait --text=Monitors --timeoutMs=3000',
      ],
    })
    expect(run.isError, textOf(run)).toBeFalsy()
    const monitors = yamlOf(await call('tapir_snap', {interactiveOnly: true}))
    expect((await call('tapir_tap', {ref: /- button "API" \[ref=(e\d+)\]/.exec(monitors)![1]!})).isError).toBeFalsy()
    expect(JSON.parse(textOf(await call('tapir_wait_for', {text: 'API', timeoutMs: 3000})))).toMatchObject({matched: true})
    const detail = yamlOf(await call('tapir_snap', {interactiveOnly: true}))
    expect((await call('tapir_tap', {ref: /- button "Back" \[ref=(e\d+)\]/.exec(detail)![1]!})).isError).toBeFalsy()
    const back = await call('tapir_wait_for', {textGone: 'Back', timeoutMs: 3000})
    expect(JSON.parse(textOf(back))).toMatchObject({matched: true})
    expect(yamlOf(await call('tapir_snap', {interactiveOnly: true}))).toContain('- heading "Monitors"')
  })
})
