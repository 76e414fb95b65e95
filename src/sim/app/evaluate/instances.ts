import {dartToString, type DartValue} from './values.js'

const CORE = {type: '@Library', fixedId: true, id: 'libraries/@0150898', name: 'dart.core', uri: 'dart:core'}
const ASYNC = {type: '@Library', fixedId: true, id: 'libraries/@4048458', name: 'dart.async', uri: 'dart:async'}
const APP = {type: '@Library', id: 'libraries/@18205424', name: '', uri: 'package:monitors/main.dart'}

function classRef(name: string, library: object, id: number): Record<string, unknown> {
  return {type: '@Class', fixedId: true, id: `classes/${id}`, name, library}
}

/** The VM's `@Instance` for a value, under a ring id `objects/<n>` (null has the fixed `objects/null`). */
export function instanceRef(value: DartValue, objectId: () => string): Record<string, unknown> {
  const base = (kind: string, cls: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    type: '@Instance',
    kind,
    id: objectId(),
    identityHashCode: 0,
    class: cls,
    ...extra,
  })
  const valueAsString = dartToString(value)
  switch (value.t) {
    case 'int':
      return base('Int', classRef('_Smi', CORE, 59), {valueAsString})
    case 'double':
      return base('Double', classRef('_Double', CORE, 58), {valueAsString})
    case 'String':
      return base('String', classRef('_OneByteString', CORE, 81), {valueAsString, length: value.v.length})
    case 'bool':
      return base('Bool', classRef('bool', CORE, 53), {valueAsString})
    case 'Null':
      return {type: '@Instance', kind: 'Null', id: 'objects/null', class: classRef('Null', CORE, 148), valueAsString: 'null'}
    case 'list':
      return base('List', classRef('_GrowableList', CORE, 91), {length: value.items.length})
    case 'future':
      return base('PlainInstance', classRef('_Future', ASYNC, 1201), {valueAsString})
    case 'throwable':
      return base('PlainInstance', classRef(value.cls, CORE, 1310), {valueAsString: `Instance of '${value.cls}'`})
    case 'object':
      return base('PlainInstance', classRef(value.cls, APP, 4100), {valueAsString})
    case 'type':
      return base('Type', classRef('_Type', CORE, 1290), {valueAsString})
    case 'function':
      return base('Closure', classRef('_Closure', CORE, 1112), {valueAsString})
  }
}
