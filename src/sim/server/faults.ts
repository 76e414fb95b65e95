export interface SimFaults {
  /** Delay before every reply. */
  latencyMs: number
  /** When a request with this method arrives, destroy the socket without replying. */
  dropSocketOn: string | null
  /** Never reply to this method (the client must time out). */
  hangOn: string | null
  /** Reply to this method with a frame that is not valid JSON. */
  malformedOn: string | null
  /** The isolate registers no ext.tapir.* (an app without tapir). */
  extensionsMissing: boolean
  /** The isolate is paused: extension calls are held until it resumes. */
  paused: boolean
  /** The next hot reload fails with this compile error (then the knob clears itself). */
  reloadCompileError: string | null
}

export const noFaults: Readonly<SimFaults> = {
  latencyMs: 0,
  dropSocketOn: null,
  hangOn: null,
  malformedOn: null,
  extensionsMissing: false,
  paused: false,
  reloadCompileError: null,
}

/** A plain-looking faults object that reports every assignment, so that `faults.paused = false`
 *  releases held calls at once. */
export function watchFaults(initial: SimFaults, onChange: (before: SimFaults) => void): SimFaults {
  return new Proxy(
    {...initial},
    {
      set(target, key, value) {
        const before = {...target}
        Reflect.set(target, key, value)
        onChange(before)
        return true
      },
    },
  )
}
