import type {AppValue} from '../app-contract.js'

/** How the Dart VM describes an object: an `@Instance` under a ring id (`objects/<n>`). */

const CORE = {type: '@Library', fixedId: true, id: 'libraries/@0150898', name: 'dart.core', uri: 'dart:core'}
const ASYNC = {type: '@Library', fixedId: true, id: 'libraries/@4048458', name: 'dart.async', uri: 'dart:async'}
const APP = {type: '@Library', id: 'libraries/@18205424', name: '', uri: 'package:monitors/main.dart'}

/** The VM's longest `valueAsString` in a reference; a longer string is cut and marked truncated. */
const MAX_VALUE_AS_STRING = 128

function libraryOf(uri: string): Record<string, unknown> {
  if (uri === 'dart:core') return CORE
  if (uri === 'dart:async') return ASYNC
  return APP
}

function classRef(name: string, library: Record<string, unknown>, id: number): Record<string, unknown> {
  return {type: '@Class', fixedId: true, id: `classes/${id}`, name, library}
}

/** A stable small id per class name, as the VM's class table gives one. */
function classId(name: string): number {
  let hash = 0
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) % 9000
  return 1000 + hash
}

const dartDouble = (v: number): string => (Number.isInteger(v) ? `${v}.0` : String(v))

/** The VM's `@Instance` for a value the app holds; `ring` mints the next `objects/<n>` id. */
export function vmInstanceRef(value: AppValue, ring: () => string): Record<string, unknown> {
  const ref = (kind: string, cls: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    type: '@Instance',
    kind,
    id: ring(),
    identityHashCode: 0,
    class: cls,
    ...extra,
  })
  switch (value.type) {
    case 'int':
      return ref('Int', classRef('_Smi', CORE, 59), {valueAsString: String(value.value)})
    case 'double':
      return ref('Double', classRef('_Double', CORE, 58), {valueAsString: dartDouble(value.value)})
    case 'String':
      return ref('String', classRef('_OneByteString', CORE, 81), {length: value.value.length, ...vmString(value.value)})
    case 'bool':
      return ref('Bool', classRef('bool', CORE, 53), {valueAsString: String(value.value)})
    case 'Null':
      return vmNull()
    case 'List':
      return ref('List', classRef('_GrowableList', CORE, 91), {length: value.length})
    case 'object':
      return ref('PlainInstance', classRef(value.className, libraryOf(value.library), classId(value.className)), {
        valueAsString: value.text,
      })
    case 'Type':
      return ref('Type', classRef('_Type', CORE, 1290), {valueAsString: value.name})
    case 'Closure':
      return ref('Closure', classRef('_Closure', CORE, 1112), {valueAsString: value.text})
  }
}

/** `null`, which the VM names by the fixed id `objects/null`. */
export function vmNull(): Record<string, unknown> {
  return {type: '@Instance', kind: 'Null', id: 'objects/null', class: classRef('Null', CORE, 148), valueAsString: 'null'}
}

/** A string reference's text, cut as the VM cuts long strings in references. */
export function vmString(text: string): {valueAsString: string; valueAsStringIsTruncated?: true} {
  return text.length <= MAX_VALUE_AS_STRING
    ? {valueAsString: text}
    : {valueAsString: text.slice(0, MAX_VALUE_AS_STRING), valueAsStringIsTruncated: true}
}
