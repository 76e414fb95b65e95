import type {RgbaImage} from '../a11y/contrast.js'
import {failsOn, parseRules, type Audit} from '../a11y/findings.js'
import {contrastFindings, labelFindings, TAP_TARGET, tapTargetFindings} from '../a11y/rules.js'
import {candidateShape, screenNodes, snapshotLines} from '../a11y/screen-nodes.js'
import type {Box, Finding, Rule, ScreenNode} from '../a11y/types.js'
import {TapirError} from '../errors.js'
import {platformOfDevice} from '../perf/platforms.js'
import {list, object, optional, readAs} from '../shape.js'
import {findAnswer, geometryAnswer} from '../vm/tapir-answers.js'
import {runVerb} from './execute-verb.js'
import {observe, snap} from './read-verbs.js'
import {screenshot} from './screenshot-verb.js'
import type {VerbCall} from './types.js'

type AuditInput = {within?: string; rules?: string; failOn?: string; platform?: string}

/** observe's answer, as the audit reads it (its own answer shape checks only what a ref needs). */
const observedShape = object({candidates: optional(list(candidateShape))})

/** observe lists at most this many candidates; a screen with more is audited in part, and says so. */
const OBSERVE_LIMIT = 1000

/** Reads the screen through snap, observe and a PNG screenshot (each the way the app's package
 *  answers it), then runs the rules of src/lib/a11y on what they gave. */
export async function audit(call: VerbCall, input: AuditInput): Promise<Audit> {
  const rules = parseRules(input.rules, 'rules')
  const notes: string[] = []
  const {snapshot} = await runVerb(snap, call, {...(input.within ? {within: input.within} : {})})
  if (typeof snapshot !== 'string') throw new TapirError('The app sent a snapshot that is not text; nothing was audited.', 'app')
  const observed = readAs(observedShape, await runVerb(observe, call, {limit: OBSERVE_LIMIT, includeEnrichers: 'false'}))
  if ('problem' in observed) throw new TapirError(`The app sent observe candidates the audit cannot read: ${observed.problem}.`, 'app')
  const candidates = observed.value.candidates ?? []
  if (candidates.length >= OBSERVE_LIMIT) notes.push(`observe listed its limit of ${OBSERVE_LIMIT} widgets; later ones were not audited`)
  const nodes = screenNodes(snapshotLines(snapshot), candidates)
  const view = await viewGeometry(call)
  const {size, platform} = tapTarget(call, input.platform, notes)
  const findings: Finding[] = []
  const ran: Rule[] = []
  if (rules.includes('tap-target') || rules.includes('label')) {
    const unplaced = nodes.filter((node) => node.ref !== null && node.rect === null).length
    if (unplaced > 0) notes.push(`${unplaced} ref${unplaced === 1 ? '' : 's'} had no bounds in observe and were not measured`)
  }
  if (rules.includes('tap-target') && view) {
    findings.push(...tapTargetFindings(nodes, view.rect, size, platform))
    ran.push('tap-target')
  }
  if (rules.includes('label')) {
    findings.push(...labelFindings(nodes))
    ran.push('label')
  }
  if (rules.includes('contrast') && view) {
    await placeTextLines(call, nodes, input.within, notes)
    findings.push(...contrastFindings(nodes, {image: await screenImage(call), dpr: view.dpr}))
    ran.push('contrast')
  }
  const missed = rules.filter((rule) => !ran.includes(rule))
  if (missed.length > 0)
    notes.push(
      `${missed.join(' and ')} did not run: the app gave no view geometry (its rect and pixel ratio), which ${missed.length === 1 ? 'it needs' : 'they need'}`,
    )
  return {
    findings,
    rules: ran,
    tapTarget: {size, platform},
    view: view?.rect ?? null,
    nodes: nodes.length,
    notes,
    failed: failsOn(input.failOn, findings),
  }
}

/** The view in logical pixels and its device pixel ratio: the screenshot extension's geometry mode. */
async function viewGeometry(call: VerbCall): Promise<{rect: Box; dpr: number} | undefined> {
  try {
    const app = await call.app()
    if ((await app.appPackage(call.deadline)) === 'dusk') throw new Error('0.0.1 has no geometry')
    const {rect, devicePixelRatio} = await app.callExtension('screenshot', {geometry: 'true'}, geometryAnswer, call.deadline)
    if (!rect) throw new Error('no rect')
    return {rect: {x: rect.x, y: rect.y, w: rect.width, h: rect.height}, dpr: devicePixelRatio ?? 1}
  } catch (error) {
    if (error instanceof TapirError && error.kind === 'connection') throw error
    return undefined
  }
}

function tapTarget(call: VerbCall, given: string | undefined, notes: string[]): {size: number; platform: string} {
  if (given === 'ios' || given === 'android') return {size: TAP_TARGET[given], platform: given}
  let platform: string
  try {
    platform = platformOfDevice(call.target?.().device)
  } catch {
    platform = 'unknown'
  }
  if (platform === 'ios') return {size: TAP_TARGET.ios, platform}
  if (platform !== 'android') notes.push(`the device (${platform}) is neither Android nor iOS: Android's 48x48 was assumed`)
  return {size: TAP_TARGET.android, platform: 'android'}
}

/** A text line has no ref and observe does not list it: its rect comes from find (a qN) and
 *  the screenshot extension's geometry mode on that handle, once per distinct text. */
async function placeTextLines(call: VerbCall, nodes: ScreenNode[], within: string | undefined, notes: string[]): Promise<void> {
  const texts = nodes.filter((node) => node.ref === null)
  if (texts.length === 0) return
  const app = await call.app()
  if ((await app.appPackage(call.deadline)) === 'dusk') {
    notes.push(`${texts.length} text lines were not measured: Dusk 0.0.1 gives no rect for a widget`)
    return
  }
  const rects = new Map<string, Box | null>()
  for (const node of texts) {
    const text = node.label !== '' ? node.label : node.value
    if (!rects.has(text)) rects.set(text, await rectOfText(call, text, within))
    node.rect = rects.get(text) ?? null
  }
  const unplaced = texts.filter((node) => node.rect === null).length
  if (unplaced > 0) notes.push(`${unplaced} text line${unplaced === 1 ? '' : 's'} could not be found by text and were not measured`)
  if (texts.length > rects.size) notes.push('a text shown more than once was measured where find resolves it (the first match)')
}

async function rectOfText(call: VerbCall, text: string, within: string | undefined): Promise<Box | null> {
  const app = await call.app()
  const found = await app.callExtension('find', {text, ...(within ? {within} : {})}, findAnswer, call.deadline)
  if (!found.matched || typeof found.ref !== 'string') return null
  try {
    const {rect} = await app.callExtension('screenshot', {geometry: 'true', ref: found.ref}, geometryAnswer, call.deadline)
    return rect ? {x: rect.x, y: rect.y, w: rect.width, h: rect.height} : null
  } catch (error) {
    if (error instanceof TapirError && error.kind === 'app') return null
    throw error
  }
}

/** The whole view as a PNG (JPEG where the app ignores the format), decoded to RGBA. */
async function screenImage(call: VerbCall): Promise<RgbaImage> {
  const shot = await runVerb(screenshot, call, {format: 'png'})
  const base64 = typeof shot.base64 === 'string' ? shot.base64 : typeof shot.bytes === 'string' ? shot.bytes : undefined
  if (base64 === undefined) throw new TapirError('The app sent a screenshot with no image; contrast was not measured.', 'app')
  const bytes = Buffer.from(base64, 'base64')
  if (bytes[0] === 0x89 && bytes[1] === 0x50) {
    const {PNG} = await import('pngjs')
    const png = PNG.sync.read(bytes)
    return {width: png.width, height: png.height, data: png.data}
  }
  const jpeg = await import('jpeg-js')
  const decoded = jpeg.decode(bytes, {useTArray: true, formatAsRGBA: true})
  return {width: decoded.width, height: decoded.height, data: decoded.data}
}
