import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8')
const pkg = JSON.parse(read('package.json')) as {engines: {node: string}}
const lock = JSON.parse(read('package-lock.json')) as {packages: Record<string, {engines?: {node?: string}; dev?: boolean}>}

/** `^20.19.0 || ^22.13.0 || >=24` in words: "Node 20.19+, 22.13+ or 24+". */
function inWords(range: string): string {
  const lines = range.split('||').map((part) => {
    const version = /^\s*(?:\^|>=)(\d+)(?:\.(\d+))?(?:\.0)?\s*$/.exec(part)
    if (!version) throw new Error(`engines.node part "${part}" is not ^X.Y.0 or >=X`)
    return version[2] === undefined || version[2] === '0' ? `${version[1]}+` : `${version[1]}.${version[2]}+`
  })
  return `Node ${lines.slice(0, -1).join(', ')}${lines.length > 1 ? ' or ' : ''}${lines.at(-1)}`
}

type Version = [number, number, number]

/** The version a range part starts at: `^22.13.0`, `>= 18`, `20` → [22, 13, 0], [18, 0, 0], [20, 0, 0]. */
function versionOf(part: string): Version {
  const match = /^\s*(?:\^|>=)?\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(part)
  if (!match) throw new Error(`cannot read the engines range part "${part}"`)
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)]
}

const compare = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]

/** Whether an npm engines range (the forms the lock holds: `^X.Y.Z`, `>=X.Y`, `X`, joined by `||`) accepts `version`. */
function accepts(range: string, version: Version): boolean {
  return range.split('||').some((part) => {
    const from = versionOf(part)
    if (part.includes('>=')) return compare(version, from) >= 0
    return version[0] === from[0] && compare(version, from) >= 0 // ^X.Y.Z and a bare X stay within major X
  })
}

describe('the Node versions tapir supports', () => {
  it('are said the same way by engines, the README and CONTRIBUTING', () => {
    const words = inWords(pkg.engines.node)
    expect(read('README.md')).toContain(`${words}.`)
    expect(read('CONTRIBUTING.md')).toContain(`${words}.`)
    expect(read('README.md').match(/Node \d+\.\d+\+[^\n]*?(?=\.( |$))/gm)).toEqual([words])
    // bin/run.cjs names them to a Node outside the range (test/e2e/start-up.test.ts runs it).
    expect(read('bin/run.cjs')).toContain(`✗ tapir needs ${words};`)
  })

  it('are ones every installed package accepts, so npm ci warns of no engine on any of them', () => {
    const lowest = pkg.engines.node.split('||').map((part) => versionOf(part))
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range = entry.engines?.node
      return range
        ? lowest.filter((version) => !accepts(range, version)).map((version) => `${path} (${range}) refuses ${version.join('.')}`)
        : []
    })
    expect(refusing).toEqual([])
  })
})
