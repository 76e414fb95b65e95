import {execFile} from 'node:child_process'
import {join} from 'node:path'
import {promisify} from 'node:util'
import {expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'

// The built sim rasterises on a worker thread, as an engine's raster thread does: a screenshot's
// pixels are the frame recorded when the call came, and other calls are answered meanwhile. Run
// from dist/ in its own Node (the TypeScript sources rasterise inline), the PNG it answers is the
// one the inline path makes of the same frame.
const SCRIPT = `
const dist = (path) => import(${JSON.stringify(join(ROOT, 'dist'))} + '/' + path)
const {startSim} = await dist('sim/index.js')
const {AppConnection} = await dist('lib/vm/app-connection.js')
const {toWebSocketUri} = await dist('lib/vm/uri.js')
const {Deadline} = await dist('lib/vm/deadline.js')
const {anyAnswer} = await dist('lib/vm/tapir-answers.js')
const {AppModel} = await dist('sim/app/app-model.js')
const {paintFrame} = await dist('sim/app/raster/paint.js')
const {encodePng} = await dist('sim/app/raster/png.js')
const sim = await startSim({mode: 'vm'})
const app = await AppConnection.open(toWebSocketUri(sim.httpUri), 30000)
const order = []
const shot = app.callExtension('screenshot', {format: 'png'}, anyAnswer, new Deadline(30000)).then((r) => (order.push('screenshot'), r))
const routes = app.callExtension('get_routes', {}, anyAnswer, new Deadline(30000)).then((r) => (order.push('get_routes'), r))
const [image] = await Promise.all([shot, routes])
const model = new AppModel()
const inline = encodePng(paintFrame(model.frame, model.frame.root.ui.rect, model.view.devicePixelRatio, false)).toString('base64')
console.log(JSON.stringify({order, same: image.base64 === inline, width: image.width, height: image.height}))
app.close()
await sim.close()
`

it('the built sim answers a read while a screenshot rasterises, and the image is the inline one', async () => {
  const {stdout} = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', SCRIPT], {timeout: 60_000})
  expect(JSON.parse(stdout)).toEqual({order: ['get_routes', 'screenshot'], same: true, width: 800, height: 1600})
})
