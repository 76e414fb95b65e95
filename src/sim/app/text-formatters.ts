import type {FieldKey} from './ui-node.js'

/** What each field's controller ends up holding when it is handed `text`. */
export const FORMATTERS: Readonly<Record<FieldKey, (text: string) => string>> = {
  email: (text) => text,
  password: (text) => text,
  /** FilteringTextInputFormatter.digitsOnly: letters never reach the controller. */
  interval: (text) => text.replace(/[^0-9]/g, ''),
  /** A controller listener that rewrites every edit to upper case. */
  nickname: (text) => text.toUpperCase(),
  rename: (text) => text,
  monitorName: (text) => text,
}
