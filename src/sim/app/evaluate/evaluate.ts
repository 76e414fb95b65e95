import type {AppValue, EvaluateReply} from '../../app-contract.js'
import type {AppModel} from '../app-model.js'
import {locationOf} from '../router.js'
import {compileDetails} from './compile-details.js'
import {CompileError} from './lexer.js'
import {parse} from './parser.js'
import {run} from './run.js'
import {staticType} from './types.js'
import {DartThrow, dartToString, type DartValue} from './values.js'

/** An expression in the app's root library: compiled (parsed and type checked, the front end's
 *  work, or the web expression compiler's), then run against the app's state. */
export function evaluateInApp(app: AppModel, expression: string): EvaluateReply {
  let parsed
  try {
    parsed = parse(expression)
    staticType(parsed)
  } catch (error) {
    if (error instanceof CompileError) return {kind: 'compileError', details: compileDetails(expression, error)}
    throw error
  }
  try {
    const value = run(parsed, {user: app.state.user, monitors: app.state.monitors, currentRoute: locationOf(app.state)})
    return {kind: 'value', value: appValue(value)}
  } catch (error) {
    if (!(error instanceof DartThrow)) throw error
    return {kind: 'thrown', exception: dartToString(error.thrown)}
  }
}

const CORE = 'dart:core'
const APP_LIBRARY = 'package:monitors/main.dart'

function appValue(value: DartValue): AppValue {
  switch (value.t) {
    case 'int':
    case 'double':
      return {type: value.t, value: value.v}
    case 'String':
      return {type: 'String', value: value.v}
    case 'bool':
      return {type: 'bool', value: value.v}
    case 'Null':
      return {type: 'Null'}
    case 'list':
      return {type: 'List', elementType: 'Monitor', length: value.items.length}
    case 'future':
      return {type: 'object', className: '_Future', library: 'dart:async', text: dartToString(value)}
    case 'throwable':
      return {type: 'object', className: value.cls, library: CORE, text: `Instance of '${value.cls}'`}
    case 'object':
      return {type: 'object', className: value.cls, library: APP_LIBRARY, text: dartToString(value)}
    case 'type':
      return {type: 'Type', name: value.name}
    case 'function':
      return {type: 'Closure', text: dartToString(value)}
  }
}
