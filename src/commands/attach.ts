import {MAX_ARG_CHARS} from '../lib/commands/tool-bounds.js'
import {defineCommand, toolArg} from '../lib/commands/types.js'
import type {Outcome} from '../lib/output/outcome.js'
import {linesOutcome} from '../lib/output/outcome.js'
import {redactToken} from '../lib/output/redact-token.js'
import {probeApp} from '../lib/runtime/probe.js'
import {writeSession} from '../lib/session/store.js'
import {toWebSocketUri} from '../lib/vm/uri.js'
import {refuseOverRunningApp} from './start.js'

export const ATTACH = defineCommand({
  id: 'attach',
  summary: 'Record an already running Flutter app (its VM Service URI) as the session of this project.',
  examples: [
    '<%= config.bin %> attach --uri http://127.0.0.1:8181/AbCdEfGh12s=/',
    '<%= config.bin %> attach --uri ws://127.0.0.1:8181/AbCdEfGh12s=/ws --cdp-port 9222',
  ],
  params: [
    {
      name: 'uri',
      type: 'string',
      required: true,
      description: 'The VM Service address flutter run printed (http://…/TOKEN=/ or ws://…/TOKEN=/ws).',
    },
    {
      name: 'cdp-port',
      type: 'integer',
      minimum: 1,
      maximum: 65535,
      description: 'Chrome DevTools port of the browser running the Flutter web app.',
    },
  ],
  globals: 'all',
  session: 'locks',
  mcp: {
    tool: 'tapir_attach',
    title: 'Attach a running app',
    summary: 'Record a running app, by the URI flutter run printed, as the session.',
    kind: 'set',
    params: [
      {name: 'uri', type: 'string', required: true, maxLength: MAX_ARG_CHARS, description: 'The VM Service URI.'},
      {name: 'cdpPort', type: 'integer', minimum: 1, maximum: 65535, brief: "Its Chrome's DevTools port.", description: 'The CDP port.'},
    ],
    input: (args) => ({uri: toolArg.string(args.uri) ?? '', 'cdp-port': toolArg.integer(args.cdpPort)}),
  },
  async run(flags, {location, verbs: context}): Promise<Outcome> {
    const vmServiceUri = toWebSocketUri(flags.uri)
    refuseOverRunningApp(location)
    const cdpPort = flags['cdp-port'] ?? null
    writeSession(location, {
      vmServiceUri,
      cdpPort,
      pid: null,
      projectRoot: location.projectRoot,
      device: 'attached',
      startedAt: new Date().toISOString(),
    })
    const probe = await probeApp(vmServiceUri, Math.min(flags.timeout, 5000), context.origin === 'mcp' ? 'mcp' : 'cli')
    const shown = redactToken(vmServiceUri)
    const outcome = linesOutcome(
      [`✓ Attached to ${shown}`, `✓ state=${location.path}`],
      {vmServiceUri: shown, cdpPort, state: location.path, ...probe},
      flags.json === true,
    )
    if (!probe.answering) outcome.stderr.push(`⚠ The app does not answer yet: ${probe.error}`)
    else if (probe.package === 'dusk')
      outcome.stderr.push(
        '⚠ The app runs Dusk 0.0.1 (ext.dusk.*), not tapir: the verbs 0.0.1 has work; tapir doctor says what is missing and how to move on.',
      )
    else if (!probe.tapir) outcome.stderr.push('⚠ The app answers, but tapir is not installed in it (no ext.tapir.* extensions yet).')
    return outcome
  },
})
