import {readFileSync, statSync} from 'node:fs'
import {dirname, join} from 'node:path'

/** What decides whether Chrome's sandbox can run on this machine. */
export interface SandboxFacts {
  platform: NodeJS.Platform
  /** The user id tapir runs as (undefined where there are none: Windows). */
  uid: number | undefined
  /** Whether this user may create user namespaces, which Chromium's Linux sandbox is built on. */
  userNamespaces: boolean
  /** Whether the browser ships the setuid-root helper (`chrome-sandbox`) that sandboxes without them. */
  setuidHelper: boolean
}

/** Whether Chromium must run with `--no-sandbox`: only on Linux, and only when the sandbox cannot
 *  start there: as root (Chromium refuses to sandbox itself as root), or with no user namespaces
 *  and no setuid helper to stand in for them. Everywhere else the sandbox stays on. */
export function needsNoSandbox(facts: SandboxFacts): boolean {
  if (facts.platform !== 'linux') return false
  if (facts.uid === 0) return true
  return !facts.userNamespaces && !facts.setuidHelper
}

const sysctl = (name: string): string | undefined => {
  try {
    return readFileSync(`/proc/sys/${name}`, 'utf8').trim()
  } catch {
    return undefined
  }
}

/** This machine's facts for launching `binary`. */
export function sandboxFacts(binary: string): SandboxFacts {
  const userNamespaces =
    process.platform === 'linux' &&
    sysctl('user/max_user_namespaces') !== '0' &&
    sysctl('kernel/unprivileged_userns_clone') !== '0' &&
    // Ubuntu 23.10+ lets only programs with an AppArmor profile use them.
    sysctl('kernel/apparmor_restrict_unprivileged_userns') !== '1'
  let setuidHelper = false
  try {
    const helper = statSync(join(dirname(binary), 'chrome-sandbox'))
    setuidHelper = helper.isFile() && helper.uid === 0 && (helper.mode & 0o4000) !== 0
  } catch {
    // no helper beside the binary
  }
  return {platform: process.platform, uid: process.getuid?.(), userNamespaces, setuidHelper}
}
