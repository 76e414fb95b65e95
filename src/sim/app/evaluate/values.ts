/** A Dart value as the simulated isolate holds it. */
export type DartValue =
  | {readonly t: 'int' | 'double'; readonly v: number}
  | {readonly t: 'String'; readonly v: string}
  | {readonly t: 'bool'; readonly v: boolean}
  | {readonly t: 'Null'}
  | {readonly t: 'object'; readonly cls: string; readonly fields: Readonly<Record<string, DartValue>>}
  /** An Error or Exception: its toString() is `text`. */
  | {readonly t: 'throwable'; readonly cls: string; readonly text: string}
  | {readonly t: 'list'; readonly items: readonly DartValue[]}
  /** A class used as a value; `statics` are its static getters. */
  | {readonly t: 'type'; readonly name: string; readonly statics?: Readonly<Record<string, DartValue>>}
  | {readonly t: 'function'}
  | {readonly t: 'future'}

export const NULL: DartValue = {t: 'Null'}

/** A throw that escapes the expression. */
export class DartThrow extends Error {
  constructor(readonly thrown: DartValue) {
    super(dartToString(thrown))
  }
}

export function throwable(cls: string, text: string): DartThrow {
  return new DartThrow({t: 'throwable', cls, text})
}

export function dartToString(value: DartValue): string {
  switch (value.t) {
    case 'int':
      return String(value.v)
    case 'double':
      return Number.isInteger(value.v) ? `${value.v}.0` : String(value.v)
    case 'String':
      return value.v
    case 'bool':
      return String(value.v)
    case 'Null':
      return 'null'
    case 'object':
      return `Instance of '${value.cls}'`
    case 'throwable':
      return value.text
    case 'list':
      return `[${value.items.map(dartToString).join(', ')}]`
    case 'type':
      return value.name
    case 'function':
      return 'Closure: () => Future<dynamic>'
    case 'future':
      return "Instance of '_Future<dynamic>'"
  }
}
