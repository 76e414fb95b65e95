import {boolean, nullable, object, optional, string, type Infer} from '../shape.js'

/** What the VM's `evaluate` answers with, as far as tapir reads it: an `@Instance` (its value as
 *  text, or its class), or an `@Error` with the message of what was thrown. */
export const instanceRef = object({
  type: string,
  kind: optional(string),
  valueAsString: optional(string),
  valueAsStringIsTruncated: optional(boolean),
  message: optional(string),
  class: optional(nullable(object({name: optional(string)}))),
})

export type InstanceRef = Infer<typeof instanceRef>
