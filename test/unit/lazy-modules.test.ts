import {describe, expect, it} from 'vitest'
import {standInSource} from '../../scripts/lazy-modules.mjs'

/** Evaluates a stand-in's source as the bundle would, with `require` answering `modules`, and
 *  counts the loads. */
function standIn(source: string, modules: Record<string, unknown>) {
  const loads: string[] = []
  const require = (name: string) => {
    loads.push(name)
    if (!(name in modules)) throw new Error(`no module ${name}`)
    return modules[name]
  }
  const module = {exports: {} as Record<string, unknown>}
  new Function('require', 'module', 'exports', source)(require, module, module.exports)
  return {exports: module.exports, loads}
}

describe('a stand-in for a module a verb run never calls', () => {
  const real = {connect: () => 'connected', DEFAULT: 5}

  it('loads nothing until a property is read, then the real module once, and reads through to it', () => {
    const {exports, loads} = standIn(standInSource({names: Object.keys(real), esModule: false, load: "require('node:tls')"}), {
      'node:tls': real,
    })
    expect(loads).toEqual([])
    expect(Object.keys(exports)).toEqual(['connect', 'DEFAULT'])
    expect(loads).toEqual([])
    expect(exports.connect).toBe(real.connect)
    expect(exports.DEFAULT).toBe(5)
    expect(loads).toEqual(['node:tls'])
  })

  it('writes through to the real module', () => {
    const target = {...real}
    const {exports} = standIn(standInSource({names: Object.keys(target), esModule: false, load: "require('x')"}), {x: target})
    exports.DEFAULT = 7
    expect(target.DEFAULT).toBe(7)
  })

  it('keeps the __esModule mark without loading, so an importer reads named exports, not a default', () => {
    const {exports, loads} = standIn(standInSource({names: ['__esModule', 'glob'], esModule: true, load: "require('x')"}), {x: {glob: 1}})
    expect(exports.__esModule).toBe(true)
    expect(loads).toEqual([])
    expect(exports.glob).toBe(1)
  })

  it('evaluates an eager property as it loads, from elsewhere, and leaves the rest lazy', () => {
    const source = standInSource({
      names: ['isWsl', 'powerShellPath'],
      esModule: false,
      load: "require('wsl-utils')",
      eager: {isWsl: "require('is-wsl').default"},
    })
    const {exports, loads} = standIn(source, {'is-wsl': {default: false}, 'wsl-utils': {powerShellPath: 'p'}})
    expect(exports.isWsl).toBe(false)
    expect(loads).toEqual(['is-wsl'])
    expect(exports.powerShellPath).toBe('p')
    expect(loads).toEqual(['is-wsl', 'wsl-utils'])
  })
})
