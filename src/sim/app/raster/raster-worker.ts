import {parentPort} from 'node:worker_threads'
import {encodeJpeg} from './jpeg.js'
import {rasterise} from './paint.js'
import {encodePng} from './png.js'
import type {RasterJob} from './raster-thread.js'

// The simulated engine's raster thread: rasterises and encodes display lists the UI thread hands it.
parentPort?.on('message', (job: RasterJob) => {
  try {
    const image = rasterise(job.list)
    const bytes = job.format === 'png' ? encodePng(image) : encodeJpeg(image, job.quality)
    parentPort?.postMessage({id: job.id, bytes, width: image.width, height: image.height})
  } catch (error) {
    parentPort?.postMessage({id: job.id, error: String(error)})
  }
})
