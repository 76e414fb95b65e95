import {clearOverrides, overrideUserAgent, overrideViewport, resizeWindow, showsViewport} from '../cdp/emulation.js'
import {cdpNotEnabled} from '../cdp/errors.js'
import {holdUntil, type HoldEnd} from '../cdp/hold.js'
import type {CdpPage, ChromeEndpoint} from '../cdp/page.js'
import {CdpPage as Page, withPage} from '../cdp/page.js'
import {DEFAULT_WINDOW, PRESETS, dartDouble, describeViewport, presetNamed, type Viewport} from '../cdp/presets.js'
import {limitOf} from '../cdp/time-limit.js'
import {ParamError, UsageError} from '../errors.js'
import {viewportShape} from './dead-holder.js'
import {defineVerb} from './define.js'
import type {Report, Verb, VerbCall} from './types.js'

/** How long a holder that took over looks at the page for an override cleared under it. */
const RECHECK_MS = 5000

/** What resize did: cleared the overrides, or sent one (held until `ended`, with --hold). */
type Resized = {reset: true} | {viewport: Viewport; held: false} | {viewport: Viewport; held: true; ended: HoldEnd}

/** What device did: listed the presets, cleared the overrides, or emulated one. */
type Emulated = {presets: Array<Viewport & {name: string}>} | {reset: true} | {applied: string; viewport: Viewport}

/**
 * Ends the overrides this session sent. Chrome is meant to drop them when the session detaches,
 * but headless builds keep the emulated size (while dropping the pixel ratio and touch), so the
 * session clears them itself: only the window size outlives a command.
 */
const releaseOverrides = clearOverrides

/** Title and URL bars the window keeps above the page: a preset's window is this much taller. */
const WINDOW_BARS_HEIGHT = 130

const NOT_HELD = 'Chrome drops this override when the command exits. Pass --hold (in the background) to keep it while you drive the app.'
const HOLDING = 'Holding the override; Ctrl-C or closing Chrome ends it.'
const ENDS_WITH_CALL =
  "The override lasts only as long as this call: Chrome dropped it when the call returned. For a viewport that lasts, hold it from a shell with the CLI's resize and its hold flag, or emulate a device with tapir_device_profile, whose window size stays."

function endpoint(context: VerbCall): ChromeEndpoint {
  const chrome = context.chrome()
  if (!chrome) throw cdpNotEnabled()
  return chrome
}

function viewportOf(input: {width: number; height: number; dpr?: number; mobile?: boolean; touch?: boolean}): Viewport {
  return {width: input.width, height: input.height, dpr: input.dpr ?? 1, mobile: input.mobile === true, touch: input.touch === true}
}

/** A holder's override, touch included either way: the holder on top decides both. */
async function holdViewport(page: CdpPage, viewport: Viewport): Promise<void> {
  await overrideViewport(page, viewport)
  if (!viewport.touch) await page.send('Emulation.setTouchEmulationEnabled', {enabled: false})
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

const overrideSent = (viewport: Viewport): string => `Viewport override sent: ${describeViewport(viewport)}.`

/** What 0.0.1's resize answer adds: Chrome keeps no override once the call is over. */
const RESIZE_LASTS = 'Chrome dropped the override when this call returned; dusk_device_profile emulates a device whose window size stays.'

export const resize = defineVerb({
  name: 'resize',
  tool: 'tapir_resize_viewport',
  title: 'Resize the viewport',
  dispatch: 'cdp:resize',
  summary: "Override the web app's viewport in Chrome (size, pixel ratio, mobile, touch).",
  details: '--hold keeps the override while you drive the app.',
  example: '--width=375 --height=812 --dpr=3 --mobile --touch',
  exampleBefore: ['tapir start --device=sim --cdp-port=9222'],
  exampleWithoutApp: true,
  kind: 'action',
  dusk: {
    on: 'unchanged',
    note: 'Chrome through CDP, as for a tapir app',
    tool: {
      tool: 'dusk_resize_viewport',
      summary: "Set the size, pixel ratio, mobile and touch emulation of the web app's viewport in Chrome, or clear them with reset.",
      params: [
        ['width', {required: true, brief: 'CSS pixels.'}],
        ['height', {required: true, brief: 'CSS pixels.'}],
        ['deviceScaleFactor', {from: 'dpr'}],
        'mobile',
        'touch',
        'reset',
      ],
      // 0.0.1 names the pixel ratio deviceScaleFactor in its answer too, and knows no hold; what
      // Chrome does with the override once the call is over is worth a note.
      reshape({held: _held, ...answer}) {
        if (typeof answer.viewport !== 'object' || answer.viewport === null) return answer
        const {dpr, ...viewport} = answer.viewport as Record<string, unknown>
        return {...answer, viewport: {...viewport, deviceScaleFactor: dpr}, note: RESIZE_LASTS}
      },
      validate(input) {
        const scale = input.deviceScaleFactor
        if (typeof scale === 'number' && scale <= 0)
          throw new ParamError((name) => `${name('deviceScaleFactor')} must be above 0 (got ${scale}).`)
      },
    },
  },
  step: 'never',
  record: {as: 'comment', why: 'not a tapir:run step'},
  params: [
    {
      name: 'width',
      brief: 'CSS pixels; required unless reset.',
      type: 'integer',
      description: 'Viewport width in CSS pixels (375 for a phone, 1440 for a desktop). Required unless --reset.',
    },
    {
      name: 'height',
      brief: 'CSS pixels; required unless reset.',
      type: 'integer',
      description: 'Viewport height in CSS pixels. Required unless --reset.',
    },
    {
      name: 'dpr',
      brief: 'Device pixel ratio, above 0.',
      type: 'number',
      default: 1,
      description: 'Device pixel ratio (2 for Retina, 3 for an iPhone Pro); must be above 0.',
    },
    {name: 'mobile', type: 'boolean', default: false, description: 'Emulate a mobile device (mobile viewport rules).'},
    {name: 'touch', type: 'boolean', default: false, description: 'Emulate a touch screen (the page sees touch points).'},
    {
      name: 'reset',
      brief: 'Clear every override.',
      type: 'boolean',
      default: false,
      description: 'Clear every viewport override (metrics, touch, user agent); the other values are ignored.',
    },
    {
      name: 'hold',
      type: 'boolean',
      cliOnly: true,
      local: true,
      description:
        'Keep the DevTools session, and so the override, open until Ctrl-C, SIGTERM, SIGHUP or Chrome going away. Run it in the background; the newest holder wins, and when it ends, the one before it applies its own again.',
    },
  ],
  validate(input) {
    if (input.reset === true) return
    const positive = (value: unknown) => typeof value === 'number' && value > 0
    if (!positive(input.width) || !positive(input.height)) {
      throw new ParamError(
        (name) =>
          `A resize needs a positive ${name('width')} and ${name('height')} (e.g. ${name('width')}=375 ${name('height')}=812), or ${name('reset')}.`,
      )
    }
    if (input.dpr !== undefined && !positive(input.dpr))
      throw new ParamError((name) => `${name('dpr')} must be above 0 (got ${input.dpr}).`)
  },
  async execute(context, input): Promise<Resized> {
    const chrome = endpoint(context)
    if (input.reset === true) {
      await withPage(chrome, clearOverrides, context.deadline)
      return {reset: true}
    }
    const {width, height} = input
    if (width === undefined || height === undefined)
      throw new ParamError((name) => `A resize needs ${name('width')} and ${name('height')}, or ${name('reset')}.`)
    const viewport = viewportOf({...input, width, height})
    if (input.hold !== true) {
      await withPage(
        chrome,
        async (page) => {
          await overrideViewport(page, viewport)
          await releaseOverrides(page)
        },
        context.deadline,
      )
      return {viewport, held: false}
    }
    // Holders on one page stack up across processes: the newest live one's override is in force.
    // Chrome keeps one override per page however many sessions sent one, and a session that
    // ends while its override is on clears the page's (docs/viewport-holds.md).
    const stack = context.holdStack?.(viewportShape)
    // Listening before saying "Holding", so a script that interrupts on seeing it is heard.
    const interrupted = context.interrupted?.() ?? new AbortController().signal
    const page = await Page.open(chrome, context.deadline)
    try {
      const apply = () => holdViewport(page, viewport)
      let key = stack ? await stack.push(viewport, apply) : (await apply(), '')
      context.progress?.(`✓ ${overrideSent(viewport)}`)
      context.progress?.(HOLDING)
      let warned: string | undefined
      let checkUntil = 0
      const applyAgain = async () => {
        // Long after the verb's deadline: each apply again gets a --timeout of its own.
        page.limitTo(limitOf(context.timeoutMs))
        // Chrome sends a session's override again only when it differs from what that
        // session last sent, so this one is cleared first, then sent whole.
        await clearOverrides(page)
        await apply()
      }
      const tick = stack
        ? async () => {
            try {
              const was = key
              let applied = false
              key = await stack.reapply(key, async () => {
                await applyAgain()
                applied = true
              })
              // A holder killed outright is seen gone (its pid) before Chrome may have ended its
              // session, whose end then clears the page's override, this one's too. For a while
              // after taking over, the page is looked at, and the override sent again if it
              // lays out otherwise (under the lock, and only while this holder is the newest).
              if (key !== was) checkUntil = applied ? Date.now() + RECHECK_MS : 0
              else if (Date.now() < checkUntil && !(await showsViewport(page, viewport))) await stack.reapply('', applyAgain)
            } catch (error) {
              // Said once, not on every look, until the next one fails otherwise.
              const line = `⚠ Could not apply the ${describeViewport(viewport)} override again: ${messageOf(error)}`
              if (line !== warned) context.progress?.(line)
              warned = line
              return
            }
            warned = undefined
          }
        : undefined
      const ended = await holdUntil(page, interrupted, tick)
      // The verb's deadline is long past: the release gets a --timeout of its own.
      page.limitTo(limitOf(context.timeoutMs))
      // Cleared before the session ends, so its end clears nothing the next holder applies.
      const release = async () => {
        if (ended === 'interrupted') await releaseOverrides(page)
        await page.close()
      }
      await (stack ? stack.leave(release) : release())
      return {viewport, held: true, ended}
    } finally {
      await page.close()
    }
  },
  report(result): Report {
    if ('reset' in result) return {stdout: '✓ Viewport reset to defaults.'}
    if (!result.held) return {stdout: `✓ ${overrideSent(result.viewport)}`, stderr: [`⚠ ${NOT_HELD}`]}
    return {
      stdout: `✓ Released the ${describeViewport(result.viewport)} override (${result.ended === 'chrome-gone' ? 'Chrome went away' : 'interrupted'}).`,
    }
  },
  mcpText(result) {
    if ('reset' in result) return 'Viewport reset to defaults.'
    return `${overrideSent(result.viewport)}\n${ENDS_WITH_CALL}`
  },
})

async function emulatePreset(page: CdpPage, name: string): Promise<Viewport> {
  const preset = presetNamed(name)
  await overrideViewport(page, preset)
  await overrideUserAgent(page, preset.userAgent)
  await resizeWindow(page, preset.width, preset.height + WINDOW_BARS_HEIGHT)
  await releaseOverrides(page)
  return {width: preset.width, height: preset.height, dpr: preset.dpr, mobile: preset.mobile, touch: preset.touch}
}

export const device = defineVerb({
  name: 'device',
  tool: 'tapir_device_profile',
  title: 'Emulate a device',
  dispatch: 'cdp:device',
  summary: 'Emulate a named device in Chrome (viewport, pixel ratio, touch, user agent).',
  details: '--list shows the presets.',
  example: '--preset=pixel-8',
  exampleBefore: ['tapir start --device=sim --cdp-port=9222'],
  exampleWithoutApp: true,
  kind: 'action',
  dusk: {
    on: 'unchanged',
    note: 'Chrome through CDP, as for a tapir app',
    tool: {
      tool: 'dusk_device_profile',
      summary: 'Make the web app in Chrome look like a named device (size, pixel ratio, touch, user agent); list names the presets.',
      params: [
        [
          'preset',
          {
            brief: 'The device to emulate.',
            options: ['iphone-x', 'iphone-13', 'iphone-15-pro', 'pixel-5', 'pixel-8', 'ipad-pro-12.9', 'desktop-1440', 'desktop-1920'],
          },
        ],
        'list',
        'reset',
      ],
    },
  },
  step: 'never',
  record: {as: 'comment', why: 'not a tapir:run step'},
  params: [
    {
      name: 'preset',
      type: 'string',
      brief: PRESETS.map((preset) => preset.name).join(', '),
      description: `The device: ${PRESETS.map((preset) => preset.name).join(', ')}. Omit with --list or --reset.`,
    },
    {
      name: 'list',
      brief: 'List the presets; needs no Chrome.',
      type: 'boolean',
      default: false,
      description: 'List the presets (needs no Chrome); preset and reset are ignored.',
    },
    {
      name: 'reset',
      brief: 'Clear every override, restore the window.',
      type: 'boolean',
      default: false,
      description: 'Clear every viewport override (metrics, touch, user agent) and restore the 1440x900 window.',
    },
  ],
  validate(input) {
    if (input.list === true || input.reset === true) return
    if (typeof input.preset !== 'string' || input.preset.trim() === '') {
      throw new UsageError(
        (words) =>
          `Pass ${words.arg('preset', '<name>')}, ${words.arg('list')} or ${words.arg('reset')}. ${words.run} ${words.call('device', {list: true})} to see the presets.`,
      )
    }
    presetNamed(input.preset)
  },
  async execute(context, input): Promise<Emulated> {
    if (input.list === true)
      return {presets: PRESETS.map(({name, width, height, dpr, mobile, touch}) => ({name, width, height, dpr, mobile, touch}))}
    const chrome = endpoint(context)
    if (input.reset === true) {
      await withPage(
        chrome,
        async (page) => {
          await clearOverrides(page)
          await resizeWindow(page, DEFAULT_WINDOW.width, DEFAULT_WINDOW.height)
        },
        context.deadline,
      )
      return {reset: true}
    }
    const preset = input.preset
    if (preset === undefined) throw new ParamError((name) => `Pass ${name('preset')}, ${name('list')} or ${name('reset')}.`)
    const viewport = await withPage(chrome, (page) => emulatePreset(page, preset), context.deadline)
    return {applied: presetNamed(preset).name, viewport}
  },
  report(result, input): Report {
    if ('presets' in result) {
      const lines = result.presets.map(
        (preset) =>
          `${preset.name}: ${preset.width}x${preset.height} @ ${dartDouble(preset.dpr)}x (mobile=${preset.mobile} touch=${preset.touch})`,
      )
      return {stdout: lines.join('\n')}
    }
    if ('reset' in result) return {stdout: '✓ Viewport emulation reset to defaults.'}
    const {viewport} = result
    return {stdout: `✓ Emulating ${input.preset}: ${viewport.width}x${viewport.height} @ ${dartDouble(viewport.dpr)}x.`}
  },
})

export const chromeVerbs: Verb[] = [resize, device]
