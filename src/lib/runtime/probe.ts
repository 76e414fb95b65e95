import {TapirError, type Surface} from '../errors.js'
import {redactToken} from '../output/redact-token.js'
import {WORDS} from '../verbs/words.js'
import {AppConnection, type AppPackage} from '../vm/app-connection.js'
import {Deadline} from '../vm/deadline.js'
import {ZERO_INSTALL_NOTE, zeroInstallable} from '../vm/zero-install.js'

export interface Probe {
  answering: boolean
  /** Whether an isolate has registered ext.tapir.* extensions. */
  tapir?: boolean
  /** The in-app package the app runs: tapir, or its predecessor Dusk 0.0.1. */
  package?: AppPackage
  vmVersion?: string
  /** The app runs no package and is driven through Flutter's own surface: the one line saying so. */
  zeroInstall?: string
  error?: string
}

/** Asks the VM Service whether it is there and whether tapir lives in it; why not is worded for `surface`. */
export async function probeApp(wsUri: string, timeoutMs: number, surface: Surface = 'cli'): Promise<Probe> {
  let app: AppConnection | undefined
  const deadline = new Deadline(timeoutMs)
  try {
    app = await AppConnection.open(wsUri, timeoutMs)
    const version = await app.client.call('getVersion', {}, deadline)
    const vmVersion =
      typeof version.major === 'number' && typeof version.minor === 'number' ? `${version.major}.${version.minor}` : undefined
    const appPackage = await app.appPackage(deadline).catch(() => undefined)
    const zero = appPackage === undefined && zeroInstallable(await app.extensionRPCs(deadline).catch(() => []))
    return {
      answering: true,
      tapir: appPackage === 'tapir',
      ...(appPackage ? {package: appPackage} : {}),
      ...(zero ? {zeroInstall: ZERO_INSTALL_NOTE} : {}),
      ...(vmVersion ? {vmVersion} : {}),
    }
  } catch (error) {
    const message = error instanceof TapirError ? error.messageFor(WORDS[surface]) : error instanceof Error ? error.message : String(error)
    return {answering: false, error: redactToken(message)}
  } finally {
    app?.close()
  }
}
