import {describe, expect, it} from 'vitest'
import {createMonitorsApp} from '../../src/sim/app/index.js'

describe('evaluate', () => {
  it('answers integer arithmetic as an Int @Instance', () => {
    const outcome = createMonitorsApp().evaluate('1 + 2 * 3')
    expect(outcome).toEqual({
      kind: 'instance',
      result: {
        type: '@Instance',
        kind: 'Int',
        id: 'objects/1',
        identityHashCode: 0,
        class: {
          type: '@Class',
          fixedId: true,
          id: 'classes/59',
          name: '_Smi',
          library: {type: '@Library', fixedId: true, id: 'libraries/@0150898', name: 'dart.core', uri: 'dart:core'},
        },
        valueAsString: '7',
      },
    })
  })

  it('reads app state through the root library globals', async () => {
    const app = createMonitorsApp()
    expect(app.evaluate('Auth.user?.email')).toMatchObject({kind: 'instance', result: {kind: 'Null', valueAsString: 'null'}})
    expect(app.evaluate('monitors.length')).toMatchObject({result: {kind: 'Int', valueAsString: '20'}})
    expect(app.evaluate("currentRoute + '!'")).toMatchObject({result: {kind: 'String', valueAsString: '/login!'}})
    await app.call('snap', {})
    await app.call('fill', {ref: 'e2', text: 'ann@example.com', includeSnapshot: 'false'})
    await app.call('fill', {ref: 'e3', text: 'hunter2', includeSnapshot: 'false'})
    await app.call('tap', {ref: 'e4', includeSnapshot: 'false'})
    expect(app.evaluate('Auth.user?.email')).toMatchObject({result: {kind: 'String', valueAsString: 'ann@example.com'}})
    expect(app.evaluate('Auth.user != null && monitors.first.name == "API"')).toMatchObject({result: {kind: 'Bool', valueAsString: 'true'}})
  })

  it('answers an awaiting expression wrapped by the caller with the wrapper Future', () => {
    const outcome = createMonitorsApp().evaluate('(() async => await Auth.user?.email)()')
    expect(outcome).toMatchObject({
      kind: 'instance',
      result: {type: '@Instance', kind: 'PlainInstance', valueAsString: "Instance of '_Future<dynamic>'", class: {name: '_Future'}},
    })
  })

  it('reports a throw as an UnhandledException @Error', () => {
    const app = createMonitorsApp()
    expect(app.evaluate("throw StateError('boom')")).toEqual({
      kind: 'error',
      result: {type: '@Error', kind: 'UnhandledException', id: 'objects/1', message: 'Unhandled exception:\nBad state: boom'},
    })
    expect(app.evaluate('1 ~/ 0')).toMatchObject({kind: 'error', result: {message: 'Unhandled exception:\nIntegerDivisionByZeroException'}})
    expect(app.evaluate('Auth.user!.email')).toMatchObject({
      kind: 'error',
      result: {message: 'Unhandled exception:\nNull check operator used on a null value'},
    })
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

  it('answers strings, doubles, booleans and null with their VM kinds', () => {
    const app = createMonitorsApp()
    expect(app.evaluate("'hi'")).toMatchObject({result: {kind: 'String', valueAsString: 'hi', length: 2}})
    expect(app.evaluate('7 / 2')).toMatchObject({result: {kind: 'Double', valueAsString: '3.5'}})
    expect(app.evaluate('1 < 2')).toMatchObject({result: {kind: 'Bool', valueAsString: 'true'}})
    expect(app.evaluate('null')).toMatchObject({result: {kind: 'Null', id: 'objects/null'}})
  })
})
