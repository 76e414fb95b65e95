/** Flutter's semantics dump (rendering/binding.dart `initServiceExtensions`, in debug and profile
 *  builds): what an app with no package is read through. */
export const SEMANTICS_DUMP = 'ext.flutter.debugDumpSemanticsTreeInTraversalOrder'

/** The one line tapir says about an app it drives with no package in it. */
export const ZERO_INSTALL_NOTE =
  "zero-install: the app runs no tapir package, so tapir reads Flutter's own semantics tree and acts through evaluate; the package would add actionability gates, effects, overflow, enrichers and attribution perf sessions (run tapir install)."

/** Whether an isolate that lists no package can be driven through Flutter's own surface. */
export function zeroInstallable(extensionRPCs: readonly string[]): boolean {
  return extensionRPCs.includes(SEMANTICS_DUMP)
}
