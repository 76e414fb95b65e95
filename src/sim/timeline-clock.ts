/** The VM's timeline clock in microseconds: `getVMTimelineMicros` answers it (dart-lang/sdk
 *  runtime/vm/service/service.md: "the clock used by the timeline", as `Dart_TimelineGetMicros`),
 *  and the engine stamps its frame timings with it (src/sim/app/frame-timings.ts). A monotonic
 *  clock with an arbitrary origin. */
export function timelineMicros(): number {
  return Number(process.hrtime.bigint() / 1000n)
}
