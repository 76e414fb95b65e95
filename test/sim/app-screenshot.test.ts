import jpeg from 'jpeg-js'
import {PNG} from 'pngjs'
import {describe, expect, it} from 'vitest'
import {createMonitorsApp} from '../../src/sim/app/index.js'
import {failure, quiet, refOf, snap} from './app-helpers.js'

interface Png {
  width: number
  height: number
  colourType: number
  pixel(x: number, y: number): [number, number, number]
}

/** Decodes with pngjs, which checks the signature and every chunk's CRC. */
function decodePng(bytes: Buffer): Png {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  const png = PNG.sync.read(bytes)
  expect(png.depth).toBe(8)
  const at = (x: number, y: number): number => (y * png.width + x) * 4
  return {
    width: png.width,
    height: png.height,
    colourType: png.colorType,
    pixel: (x, y) => [png.data[at(x, y)]!, png.data[at(x, y) + 1]!, png.data[at(x, y) + 2]!],
  }
}

interface JpegFrame {
  width: number
  height: number
  components: number
  markers: number[]
}

/** Walks the marker segments up to the scan; answers the SOF0 frame header. */
function readJpeg(bytes: Buffer): JpegFrame {
  expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8])
  expect([bytes.at(-2), bytes.at(-1)]).toEqual([0xff, 0xd9])
  const markers: number[] = []
  let frame: Omit<JpegFrame, 'markers'> | undefined
  let at = 2
  for (;;) {
    expect(bytes[at]).toBe(0xff)
    const marker = bytes[at + 1]!
    markers.push(marker)
    const length = bytes.readUInt16BE(at + 2)
    if (marker === 0xc0) frame = {height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7), components: bytes[at + 9]!}
    if (marker === 0xda) break
    at += 2 + length
  }
  if (frame === undefined) throw new Error('no SOF0 marker')
  return {...frame, markers}
}

const bytesOf = (result: Record<string, unknown>): Buffer => Buffer.from(result.base64 as string, 'base64')

describe('screenshot', () => {
  it('captures the whole viewport as a baseline JPEG by default, at device pixel ratio 2', async () => {
    const app = createMonitorsApp()
    const result = await app.call('screenshot', {})
    expect(Object.keys(result).sort()).toEqual(['base64', 'format', 'height', 'width'])
    expect(result).toMatchObject({format: 'jpeg', width: 800, height: 1600})
    const frame = readJpeg(bytesOf(result))
    expect(frame).toMatchObject({width: 800, height: 1600, components: 3})
    expect(frame.markers).toEqual([0xe0, 0xdb, 0xc0, 0xc4, 0xda])
    const decoded = jpeg.decode(bytesOf(result), {useTArray: true})
    expect([decoded.width, decoded.height]).toEqual([800, 1600])
    for (const channel of decoded.data.subarray(0, 3)) expect(Math.abs(channel - 250)).toBeLessThanOrEqual(3)
  })

  it('captures a PNG whose IHDR, chunks and pixel rows decode to the reported size', async () => {
    const app = createMonitorsApp()
    const result = await app.call('screenshot', {format: 'png'})
    expect(result).toMatchObject({format: 'png', width: 800, height: 1600})
    const png = decodePng(bytesOf(result))
    expect([png.width, png.height, png.colourType]).toEqual([800, 1600, 2])
    expect(png.pixel(0, 0)).toEqual([250, 250, 250])
    // The "Sign in" heading's glyph run starts at logical (24, 90).
    expect(png.pixel(50, 190)).toEqual([40, 40, 48])
  })

  it('captures one widget by ref: its rect times the ratio, in either format', async () => {
    const app = createMonitorsApp()
    const button = refOf(await snap(app), 'button "Sign in"')
    const png = await app.call('screenshot', {ref: button, format: 'png'})
    expect(png).toMatchObject({format: 'png', width: 704, height: 96})
    expect(decodePng(bytesOf(png))).toMatchObject({width: 704, height: 96})
    const jpeg = await app.call('screenshot', {ref: button})
    expect(readJpeg(bytesOf(jpeg))).toMatchObject({width: 704, height: 96})
  })

  it('takes a q<N> handle from find', async () => {
    const app = createMonitorsApp()
    const {ref} = await app.call('find', {text: 'Forgot password?'})
    const result = await app.call('screenshot', {ref: ref as string, format: 'png'})
    expect(result).toMatchObject({width: 320, height: 80})
  })

  it('narrows to a sub-rect relative to the ref, clipped to the widget', async () => {
    const app = createMonitorsApp()
    const button = refOf(await snap(app), 'button "Sign in"')
    const part = await app.call('screenshot', {ref: button, rect: '0,0,100,20', format: 'png'})
    expect(decodePng(bytesOf(part))).toMatchObject({width: 200, height: 40})
    const clipped = await app.call('screenshot', {ref: button, rect: '300, 10, 100, 100'})
    expect(clipped).toMatchObject({width: 104, height: 76})
    expect(readJpeg(bytesOf(clipped))).toMatchObject({width: 104, height: 76})
  })

  it('captures a widget below the fold at its own size', async () => {
    const app = createMonitorsApp()
    const login = await snap(app)
    await app.call('fill', {ref: refOf(login, 'textbox "Email"'), text: 'ann@example.com', ...quiet})
    await app.call('fill', {ref: refOf(login, 'textbox "Password"'), text: 'hunter2', ...quiet})
    await app.call('press_key', {key: 'Enter', ...quiet})
    const cron = refOf(await snap(app), 'button "Cron"')
    expect(await app.call('screenshot', {ref: cron, geometry: 'true'})).toEqual({
      rect: {x: 16, y: 1024, width: 264, height: 48},
      devicePixelRatio: 2,
    })
    expect(await app.call('screenshot', {ref: cron, format: 'png'})).toMatchObject({width: 528, height: 96})
  })

  it('geometry: "true" answers the rect and the ratio without an image', async () => {
    const app = createMonitorsApp()
    expect(await app.call('screenshot', {geometry: 'true'})).toEqual({rect: {x: 0, y: 0, width: 400, height: 800}, devicePixelRatio: 2})
    const button = refOf(await snap(app), 'button "Sign in"')
    expect(await app.call('screenshot', {ref: button, geometry: 'true'})).toEqual({
      rect: {x: 24, y: 344, width: 352, height: 48},
      devicePixelRatio: 2,
    })
    expect(await app.call('screenshot', {ref: button, rect: '10,8,50,30', geometry: 'true'})).toEqual({
      rect: {x: 34, y: 352, width: 50, height: 30},
      devicePixelRatio: 2,
    })
    expect(await app.call('screenshot', {geometry: 'false', format: 'png'})).toHaveProperty('base64')
  })

  it('quality trades size for fidelity; PNG ignores it', async () => {
    const app = createMonitorsApp()
    const low = bytesOf(await app.call('screenshot', {quality: '5'})).length
    const high = bytesOf(await app.call('screenshot', {quality: '100'})).length
    expect(high).toBeGreaterThan(low)
    const pngA = (await app.call('screenshot', {format: 'png', quality: '5'})).base64
    const pngB = (await app.call('screenshot', {format: 'png', quality: '100'})).base64
    expect(pngA).toBe(pngB)
  })

  it('shows what the screen shows: dark mode darkens the background', async () => {
    const app = createMonitorsApp()
    const login = await snap(app)
    await app.call('fill', {ref: refOf(login, 'textbox "Email"'), text: 'ann@example.com', ...quiet})
    await app.call('fill', {ref: refOf(login, 'textbox "Password"'), text: 'hunter2', ...quiet})
    await app.call('press_key', {key: 'Enter', ...quiet})
    await app.call('navigate', {route: '/settings', ...quiet})
    const light = decodePng(bytesOf(await app.call('screenshot', {format: 'png'})))
    await app.call('tap', {ref: refOf(await snap(app), 'button "Dark mode"'), ...quiet})
    const dark = decodePng(bytesOf(await app.call('screenshot', {format: 'png'})))
    expect(light.pixel(2, 2)).toEqual([250, 250, 250])
    expect(dark.pixel(2, 2)).toEqual([28, 28, 32])
  })

  it('a modal barrier darkens the page under a dialog', async () => {
    const app = createMonitorsApp()
    const before = decodePng(bytesOf(await app.call('screenshot', {format: 'png'})))
    const login = await snap(app)
    await app.call('fill', {ref: refOf(login, 'textbox "Email"'), text: 'ann@example.com', ...quiet})
    await app.call('fill', {ref: refOf(login, 'textbox "Password"'), text: 'hunter2', ...quiet})
    await app.call('press_key', {key: 'Enter', ...quiet})
    await app.call('right_click', {ref: refOf(await snap(app), 'button "API"'), ...quiet})
    const after = decodePng(bytesOf(await app.call('screenshot', {format: 'png'})))
    expect(before.pixel(2, 2)).toEqual([250, 250, 250])
    expect(after.pixel(2, 2)).toEqual([115, 115, 115])
  })

  it('refuses rect without ref, a malformed rect, a rect outside the widget, a zero-size widget and an unknown format', async () => {
    const app = createMonitorsApp()
    expect(await failure(app.call('screenshot', {rect: '0,0,10,10'}), 'any')).toEqual({
      message: 'ext.tapir.screenshot: rect is relative to a widget, so it needs ref; omit both to capture the whole viewport',
      envelope: {type: 'missing_param', suggestions: []},
    })
    const button = refOf(await snap(app), 'button "Sign in"')
    expect((await failure(app.call('screenshot', {ref: button, rect: '0,0,10'}), 'any')).message).toBe(
      'ext.tapir.screenshot: rect takes "x,y,w,h" in logical pixels with a positive width and height, got "0,0,10"',
    )
    expect((await failure(app.call('screenshot', {ref: button, rect: '0,0,0,10'}), 'any')).envelope.type).toBe('unexpected')
    expect(await failure(app.call('screenshot', {ref: button, rect: '400,0,10,10'}), 'any')).toMatchObject({
      envelope: {type: 'zero_rect', widget_path: button},
    })
    expect((await failure(app.call('screenshot', {format: 'gif'}), 'any')).message).toBe(
      'ext.tapir.screenshot: format must be "jpeg" or "png", got "gif"',
    )
    expect((await failure(app.call('screenshot', {ref: 'e99'}), 'any')).envelope.type).toBe('not_found')

    const signedIn = createMonitorsApp()
    const login = await snap(signedIn)
    await signedIn.call('fill', {ref: refOf(login, 'textbox "Email"'), text: 'ann@example.com', ...quiet})
    await signedIn.call('fill', {ref: refOf(login, 'textbox "Password"'), text: 'hunter2', ...quiet})
    await signedIn.call('press_key', {key: 'Enter', ...quiet})
    const refresh = refOf(await snap(signedIn), 'button "Refresh"')
    expect(await failure(signedIn.call('screenshot', {ref: refresh}), 'any')).toEqual({
      message: `ext.tapir.screenshot: ref ${refresh} has a zero-size rect; there is nothing to capture`,
      envelope: {type: 'zero_rect', suggestions: [], widget_path: refresh},
    })
  })

  it('wakes a hidden window for a fresh frame (framesForced), and carries the warnings block where it cannot', async () => {
    const app = createMonitorsApp()
    app.setLifecycle('hidden')
    const woken = await app.call('screenshot', {format: 'png'})
    expect(woken).toMatchObject({width: 800, height: 1600, framesForced: true})
    expect(woken).not.toHaveProperty('warnings')
    app.setLifecycle('detached')
    const result = await app.call('screenshot', {format: 'png'})
    expect(result.warnings).toMatchObject({framesEnabled: false, lifecycleState: 'detached'})
    expect(result).toMatchObject({width: 800, height: 1600})
  })
})
