/** The VM's timeline clock in microseconds: `getVMTimelineMicros` answers it and the engine's
 *  frame timings are stamped with it (dart-lang/sdk runtime/vm/service.cc `GetVMTimelineMicros`,
 *  `OS::GetCurrentMonotonicMicros`: a monotonic clock with an arbitrary origin). */
export function timelineMicros(): number {
  return Number(process.hrtime.bigint() / 1000n)
}
