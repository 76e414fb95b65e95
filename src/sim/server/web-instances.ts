import type {AppValue} from '../app-contract.js'

/**
 * How DWDS describes what the page's JavaScript holds (its `ChromeAppInstanceHelper`): a string
 * is its own id (`#StringInstanceRef#<text>`), a number is a `Double` (`objects/int-3`), a bool
 * and null have fixed ids, and an object is named by its Chrome object id with the class the
 * compiled code's metadata gives. Class ids read `classes|<library>|<name>`.
 */

function classRef(library: string, name: string): Record<string, unknown> {
  return {type: '@Class', id: `classes|${library}|${name}`, name, library: {type: '@Library', id: library, name: library, uri: library}}
}

/** What dwds' identityHashCode is: the hash of the id. */
function hashOf(id: string): number {
  let hash = 0
  for (const char of id) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0
  return Math.abs(hash)
}

function primitive(kind: string, id: string, valueAsString: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {type: '@Instance', kind, id, identityHashCode: hashOf(id), class: classRef('dart:core', kind), valueAsString, ...extra}
}

/** `null` (and `undefined`) as DWDS names it. */
export function webNull(): Record<string, unknown> {
  return primitive('Null', 'objects/null', 'null')
}

export function webString(text: string): Record<string, unknown> {
  return {...primitive('String', `#StringInstanceRef#${text}`, text), length: text.length}
}

/** A value of the page as DWDS describes it; `objectId` mints the next Chrome object id. */
export function webInstanceRef(value: AppValue, objectId: () => string): Record<string, unknown> {
  const object = (kind: string, library: string, name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => {
    const id = objectId()
    return {type: '@Instance', kind, id, identityHashCode: hashOf(id), class: classRef(library, name), ...extra}
  }
  switch (value.type) {
    case 'int':
    case 'double':
      // JavaScript has one number type: an int that is whole reads without a fraction.
      return primitive('Double', `objects/${Number.isInteger(value.value) ? 'int' : 'double'}-${value.value}`, String(value.value))
    case 'String':
      return webString(value.value)
    case 'bool':
      return primitive('Bool', `objects/bool-${value.value}`, String(value.value))
    case 'Null':
      return webNull()
    case 'List':
      return object('List', 'dart:_interceptors', `JSArray<${value.elementType}>`, {length: value.length})
    case 'object':
      return object('PlainInstance', value.library, value.className)
    case 'Type':
      return object('Type', 'dart:_runtime', '_Type', {name: value.name})
    case 'Closure':
      return object('Closure', 'dart:core', 'Closure')
  }
}
