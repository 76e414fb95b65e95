import {describe, expect, it} from 'vitest'
import {createMonitorsApp} from '../../src/sim/app/index.js'

describe('evaluate', () => {
  it('answers integer arithmetic as an int', () => {
    expect(createMonitorsApp().evaluate('1 + 2 * 3')).toEqual({kind: 'value', value: {type: 'int', value: 7}})
  })

  it('reads app state through the root library globals', async () => {
    const app = createMonitorsApp()
    expect(app.evaluate('Auth.user?.email')).toEqual({kind: 'value', value: {type: 'Null'}})
    expect(app.evaluate('monitors.length')).toEqual({kind: 'value', value: {type: 'int', value: 20}})
    expect(app.evaluate("currentRoute + '!'")).toEqual({kind: 'value', value: {type: 'String', value: '/login!'}})
    await app.call('snap', {})
    await app.call('fill', {ref: 'e2', text: 'ann@example.com', includeSnapshot: 'false'})
    await app.call('fill', {ref: 'e3', text: 'hunter2', includeSnapshot: 'false'})
    await app.call('tap', {ref: 'e4', includeSnapshot: 'false'})
    expect(app.evaluate('Auth.user?.email')).toEqual({kind: 'value', value: {type: 'String', value: 'ann@example.com'}})
    expect(app.evaluate('Auth.user != null && monitors.first.name == "API"')).toEqual({kind: 'value', value: {type: 'bool', value: true}})
    expect(app.evaluate('monitors')).toEqual({kind: 'value', value: {type: 'List', elementType: 'Monitor', length: 20}})
    expect(app.evaluate('Auth.user')).toEqual({
      kind: 'value',
      value: {type: 'object', className: 'User', library: 'package:monitors/main.dart', text: "Instance of 'User'"},
    })
  })

  it('answers an awaiting expression wrapped by the caller with the wrapper Future', () => {
    expect(createMonitorsApp().evaluate('(() async => await Auth.user?.email)()')).toEqual({
      kind: 'value',
      value: {type: 'object', className: '_Future', library: 'dart:async', text: "Instance of '_Future<dynamic>'"},
    })
  })

  it('reports a throw by what was thrown', () => {
    const app = createMonitorsApp()
    expect(app.evaluate("throw StateError('boom')")).toEqual({kind: 'thrown', exception: 'Bad state: boom'})
    expect(app.evaluate('1 ~/ 0')).toEqual({kind: 'thrown', exception: 'IntegerDivisionByZeroException'})
    expect(app.evaluate('Auth.user!.email')).toEqual({kind: 'thrown', exception: 'Null check operator used on a null value'})
  })

  it('reports compile errors the way the front end words them', () => {
    const app = createMonitorsApp()
    expect(app.evaluate('foo')).toEqual({
      kind: 'compileError',
      details: "org-dartlang-debug:synthetic_debug_expression:1:1: Error: Undefined name 'foo'.\nfoo\n^^^",
    })
    expect(app.evaluate('1 + bar')).toMatchObject({details: expect.stringContaining("1:5: Error: Undefined name 'bar'.")})
    expect(app.evaluate('Auth.user.email')).toMatchObject({
      details: expect.stringContaining("Property 'email' cannot be accessed on 'User?' because it is potentially null."),
    })
    expect(app.evaluate('await 1')).toMatchObject({
      details: expect.stringContaining("'await' can only be used in 'async' or 'async*' methods."),
    })
    expect(app.evaluate("'a' + 1").kind).toBe('compileError')
    expect(app.evaluate('(1 + ').kind).toBe('compileError')
  })

  it('answers strings, doubles, booleans and null', () => {
    const app = createMonitorsApp()
    expect(app.evaluate("'hi'")).toEqual({kind: 'value', value: {type: 'String', value: 'hi'}})
    expect(app.evaluate('7 / 2')).toEqual({kind: 'value', value: {type: 'double', value: 3.5}})
    expect(app.evaluate('1 < 2')).toEqual({kind: 'value', value: {type: 'bool', value: true}})
    expect(app.evaluate('null')).toEqual({kind: 'value', value: {type: 'Null'}})
  })
})
