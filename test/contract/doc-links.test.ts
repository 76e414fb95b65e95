import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {dirname, join, relative} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'

const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]

/** A document's lines outside fenced blocks. */
function prose(text: string): string[] {
  let fenced = false
  return text.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) fenced = !fenced
    return !fenced && !/^\s*```/.test(line)
  })
}

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as
 *  dashes, and `-1`, `-2`, … on a repeated one. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>()
  const found = new Set<string>()
  for (const line of prose(text)) {
    const heading = /^#{1,6} (.+)$/.exec(line)?.[1]
    if (heading === undefined) continue
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replaceAll(' ', '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    found.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return found
}

describe('links between the README and the docs', () => {
  it('every relative link names a file that exists, and a heading that file has', () => {
    const broken: string[] = []
    for (const doc of DOCS) {
      const text = readFileSync(join(ROOT, doc), 'utf8')
      for (const [, target] of prose(text)
        .join('\n')
        .matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue
        const [path, anchor] = target!.split('#') as [string, string | undefined]
        const file = path === '' ? join(ROOT, doc) : join(ROOT, dirname(doc), path)
        if (!existsSync(file)) broken.push(`${doc}: ${target} (no such file)`)
        else if (anchor !== undefined && !anchors(readFileSync(file, 'utf8')).has(anchor))
          broken.push(`${doc}: ${target} (${relative(ROOT, file)} has no heading #${anchor})`)
      }
    }
    expect(broken).toEqual([])
  })

  it('the README stays the front door: under 600 lines', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThan(600)
  })
})
