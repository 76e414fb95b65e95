import {Worker} from 'node:worker_threads'
import {encodeJpeg} from './jpeg.js'
import {rasterise, type DisplayList} from './paint.js'
import {encodePng} from './png.js'

export interface RasterJob {
  id: number
  list: DisplayList
  format: 'png' | 'jpeg'
  quality: number
}

interface Encoded {
  bytes: Uint8Array
  width: number
  height: number
}

/**
 * A display list rasterised and encoded off the sim's main thread, as an engine does: Flutter's
 * `OffsetLayer.toImage` builds the scene on the UI thread and returns a future the raster thread
 * completes (flutter/flutter packages/flutter/lib/src/rendering/layer.dart, `OffsetLayer.toImage`;
 * `Scene.toImage` in the engine's lib/ui/compositing.dart), and `Image.toByteData` encodes off it
 * too, so the app answers other calls meanwhile. Run from the TypeScript sources (the tests), or
 * where no worker starts, the work is done here instead, to the same bytes.
 */
export function encodeFrame(list: DisplayList, format: 'png' | 'jpeg', quality: number): Promise<Encoded> {
  const thread = rasterThread()
  if (thread === undefined) return Promise.resolve(inline(list, format, quality))
  const id = nextId++
  return new Promise((resolve, reject) => {
    pending.set(id, {resolve, reject})
    thread.postMessage({id, list, format, quality} satisfies RasterJob)
  })
}

function inline(list: DisplayList, format: 'png' | 'jpeg', quality: number): Encoded {
  const image = rasterise(list)
  return {bytes: format === 'png' ? encodePng(image) : encodeJpeg(image, quality), width: image.width, height: image.height}
}

type Answer = {id: number; bytes: Uint8Array; width: number; height: number} | {id: number; error: string}

let worker: Worker | undefined
let broken = false
let nextId = 1
const pending = new Map<number, {resolve: (encoded: Encoded) => void; reject: (error: Error) => void}>()

function rasterThread(): Worker | undefined {
  if (worker !== undefined || broken) return worker
  const file = new URL('./raster-worker.js', import.meta.url)
  if (!import.meta.url.endsWith('.js')) return undefined
  try {
    // not the parent's flags (a --input-type or a loader of the caller's would refuse or misload it)
    worker = new Worker(file, {execArgv: []})
  } catch {
    broken = true
    return undefined
  }
  worker.on('message', (answer: Answer) => {
    const waiting = pending.get(answer.id)
    pending.delete(answer.id)
    if (waiting === undefined) return
    if ('error' in answer) waiting.reject(new Error(answer.error))
    else waiting.resolve({bytes: answer.bytes, width: answer.width, height: answer.height})
  })
  worker.on('error', (error) => {
    broken = true
    worker = undefined
    for (const waiting of pending.values()) waiting.reject(error)
    pending.clear()
  })
  // The sim's server keeps the process alive; an idle raster thread must not.
  worker.unref()
  return worker
}
