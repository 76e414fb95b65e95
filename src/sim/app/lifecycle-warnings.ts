import type {Lifecycle} from './app-model.js'

const PLATFORM = 'linux'

/** The block a frame-forcing verb adds while the engine draws no frames (desktop wording). */
export function framesWarning(lifecycle: Lifecycle): Record<string, unknown> | undefined {
  if (lifecycle === 'resumed') return undefined
  return {
    framesEnabled: false,
    lifecycleState: lifecycle,
    platform: PLATFORM,
    hint:
      'The engine is not producing frames: the window is hidden, minimised or occluded, or the display is asleep. ' +
      'The semantics tree is not rebuilt and gestures cannot take effect, so this result may be stale. Show the window and retry.',
  }
}
