import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startSim, type SimHandle} from '../../src/sim/index.js'

type Box = {rect: {left: number; top: number; width: number; height: number}; text?: string}
type DisplayList = {frame: number; view: {width: number; height: number; devicePixelRatio: number; touch: boolean}; boxes: Box[]}

describe('the sim served as a web page (startSim({webPort}))', () => {
  let sim: SimHandle
  const get = (path: string) => fetch(new URL(path, sim.webUri))
  const report = (view: Record<string, unknown>) => fetch(new URL('/view', sim.webUri), {method: 'POST', body: JSON.stringify(view)})
  const frame = async (after = -1): Promise<DisplayList> => (await get(`/frame?after=${after}`)).json() as Promise<DisplayList>
  const texts = (list: DisplayList) => list.boxes.flatMap((box) => (box.text === undefined ? [] : [box.text]))
  beforeAll(async () => {
    sim = await startSim({webPort: 0})
    await sim.app.call('navigate', {route: '/monitors'})
  })
  afterAll(() => sim.close())

  it('serves a page that reports its viewport and draws frames', async () => {
    const page = await (await get('/')).text()
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">')
    expect(page).toContain("fetch('/view'")
    expect((await get('/nothing')).status).toBe(404)
  })

  it('lays out by the reported view: a phone layout when narrow, a rail with list and detail side by side when wide', async () => {
    expect((await report({width: 1440, height: 900, devicePixelRatio: 1, touch: false})).status).toBe(204)
    const wide = await frame()
    expect(wide.view).toEqual({width: 1440, height: 900, devicePixelRatio: 1, touch: false})
    expect(texts(wide)).toContain('Select a monitor to see its details')
    expect(wide.boxes.some((box) => box.rect.left === 80 + 16 && box.text === 'Monitors')).toBe(true)

    await report({width: 375, height: 812, devicePixelRatio: 3, touch: true})
    const phone = await frame()
    expect(texts(phone)).not.toContain('Select a monitor to see its details')
    expect(phone.boxes.every((box) => box.rect.left + box.rect.width <= 375 || box.text !== undefined)).toBe(true)
    const geometry = await sim.app.call('screenshot', {geometry: 'true'})
    expect(geometry).toEqual({rect: {x: 0, y: 0, width: 375, height: 812}, devicePixelRatio: 3})
  })

  it('holds /frame?after=N until the app draws a newer frame', async () => {
    const current = await frame()
    const next = frame(current.frame)
    const raced = await Promise.race([next.then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('held'), 200))])
    expect(raced).toBe('held')
    await sim.app.call('screenshot', {geometry: 'true'}) // pumps a frame
    expect((await next).frame).toBeGreaterThan(current.frame)
  })

  it('refuses a view that is not {width, height, devicePixelRatio, touch}', async () => {
    expect((await report({width: 0, height: 812, devicePixelRatio: 1, touch: false})).status).toBe(400)
    expect((await report({width: 300})).status).toBe(400)
  })
})
