import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {luminance} from '../../src/lib/a11y/contrast.js'
import type {Finding} from '../../src/lib/a11y/types.js'
import {tapir, tempDir} from '../helpers/cli.js'
import {mcpClient} from '../helpers/mcp.js'
import {SIGN_IN_STEPS, simSession, type SimSession} from '../helpers/sim.js'

/** The WCAG ratio of the two colours the sim paints the planted hint in (src/sim/app/screens/accessibility.ts). */
const PAINTED_RATIO = (luminance(0xffffffff) + 0.05) / (luminance(0x9e9e9eff) + 0.05)

type Audit = {findings: Finding[]; failed: boolean; nodes: number; rules: string[]; notes: string[]}

describe('tapir:a11y on the sim', () => {
  let s: SimSession
  let mcp: Client | undefined
  beforeAll(async () => {
    s = await simSession()
    const signed = await s.run(['tapir:run', ...SIGN_IN_STEPS, 'navigate --route=/accessibility'])
    expect(signed.exitCode, signed.stderr).toBe(0)
  })
  afterAll(async () => {
    await mcp?.close()
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  it('finds exactly the planted faults on /accessibility, each with its ref, measure and fix, none on Save', async () => {
    const result = await s.run(['tapir:a11y', '--json'])
    expect(result.exitCode, result.stderr).toBe(0)
    const audit = JSON.parse(result.stdout) as Audit
    const snap = await s.run(['tapir:snap'])
    expect(snap.stdout).toContain('- button "" [ref=e2]')
    expect(snap.stdout).toContain('- button "Close" [ref=e3]')
    expect(snap.stdout).toContain('- button "Save" [ref=e4]')
    expect(audit.findings.map((f) => [f.rule, f.ref, f.label, f.measured, f.threshold])).toEqual([
      ['tap-target', 'e3', 'Close', '32x32', '48x48'],
      ['label', 'e2', '', 'none', 'a label or tooltip'],
      ['contrast', null, 'Last checked 5 minutes ago', '2.68:1', '4.5:1'],
    ])
    for (const f of audit.findings) expect(f.fix.length).toBeGreaterThan(20)
    expect(audit.findings[0]!.rect).toEqual({x: 88, y: 80, w: 32, h: 32})
    expect(audit.findings[2]!.assumed).toContain('font size 12')
    expect(audit.findings.some((f) => f.label === 'Save')).toBe(false)
  })

  it('measures the grey text within 0.1 of the WCAG ratio of the colours the sim paints', async () => {
    const audit = JSON.parse((await s.run(['tapir:a11y', '--rules=contrast', '--json'])).stdout) as Audit
    expect(audit.rules).toEqual(['contrast'])
    const measured = Number.parseFloat(audit.findings[0]!.measured)
    expect(Math.abs(measured - PAINTED_RATIO)).toBeLessThan(0.1)
  })

  it('prints one line a finding, ref first; --fail-on=any exits 1, a rule with no finding exits 0', async () => {
    const plain = await s.run(['tapir:a11y'])
    expect(plain.exitCode).toBe(0)
    expect(plain.stdout).toMatch(/^✗ e3 button "Close" at 88,80 32x32: tap-target 32x32, needs 48x48; fix: /m)
    expect(plain.stdout).toMatch(/^3 findings \(tap-target, label, contrast; 7 nodes, tap target 48x48 for android\)$/m)
    expect((await s.run(['tapir:a11y', '--fail-on=any'])).exitCode).toBe(1)
    expect((await s.run(['tapir:a11y', '--fail-on=label'])).exitCode).toBe(1)
    expect((await s.run(['tapir:a11y', '--rules=tap-target', '--fail-on=label'])).exitCode).toBe(0)
    const ios = JSON.parse((await s.run(['tapir:a11y', '--rules=tap-target', '--platform=ios', '--json'])).stdout) as Audit
    expect(ios.findings.map((f) => f.threshold)).toEqual(['44x44'])
  })

  it('audits within a ref, and refuses a rule it does not know with exit 1', async () => {
    const within = JSON.parse((await s.run(['tapir:a11y', '--within=e4', '--json'])).stdout) as Audit
    expect(within.findings).toEqual([])
    const bad = await s.run(['tapir:a11y', '--rules=colour'])
    expect(bad.exitCode).toBe(1)
    expect(bad.stderr).toMatch(/--rules takes tap-target, label, contrast or all/)
  })

  it('exits 1 from a tapir:run step with --fail-on=any, and 0 on a clean screen', async () => {
    const failing = await s.run(['tapir:run', 'a11y --fail-on=any'])
    expect(failing.exitCode).toBe(1)
    expect(failing.stdout + failing.stderr).toContain('e3 button "Close"')
    const clean = await s.run([
      'tapir:run',
      'navigate --route=/settings',
      'a11y --fail-on=any --rules=label',
      'navigate --route=/accessibility',
    ])
    expect(clean.exitCode, clean.stdout + clean.stderr).toBe(0)
  })

  it('answers tapir_a11y over MCP compactly, refs first, no image; failOn any is an error result', async () => {
    mcp = await mcpClient(s.state)
    const result = (await mcp.callTool({name: 'tapir_a11y', arguments: {}})) as {
      content: Array<{type: string; text?: string}>
      isError?: boolean
    }
    expect(result.isError).toBeFalsy()
    expect(result.content.map((part) => part.type)).toEqual(['text'])
    const lines = result.content[0]!.text!.split('\n')
    expect(lines[0]).toBe('3 findings:')
    // The server's own snapshot mints the refs anew, in its numbering.
    expect(lines[1]).toMatch(/^e\d+ button "Close" at 88,80 32x32: tap-target 32x32, needs 48x48/)
    expect(lines[2]).toMatch(/^e\d+ button "" at 16,72 48x48: label none/)
    expect(lines[3]).toMatch(/^text text "Last checked 5 minutes ago" .*contrast 2\.68:1, needs 4\.5:1/)
    const failing = (await mcp.callTool({name: 'tapir_a11y', arguments: {failOn: 'any'}})) as {isError?: boolean}
    expect(failing.isError).toBe(true)
  })
})

describe('expect --a11y in a tapir test flow', () => {
  let s: SimSession
  let project: {path: string; remove(): void}
  beforeAll(async () => {
    s = await simSession({flutterTool: true})
    project = tempDir('tapir-a11y-')
    const flow = [...SIGN_IN_STEPS, 'navigate --route=/accessibility', 'expect --a11y'].join('\n')
    mkdirSync(join(project.path, 'flows'), {recursive: true})
    writeFileSync(join(project.path, 'flows', 'audit.tapir'), `${flow}\n`)
    writeFileSync(join(project.path, 'flows', 'clean.tapir'), `${[...SIGN_IN_STEPS, 'expect --a11y=label'].join('\n')}\n`)
  })
  afterAll(async () => {
    expect(s.sim.violations).toEqual([])
    await s.close()
    project.remove()
  })

  it('fails the flow on the findings, and shows them in the JUnit, HTML (a box on the screenshot) and JSON reports', async () => {
    const out = join(project.path, 'out')
    const result = await tapir(['test', 'flows', '--reporter=junit,html,json', `--output-dir=${out}`, '--state', s.state], {
      cwd: project.path,
    })
    expect(result.exitCode, result.stdout + result.stderr).toBe(1)
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8')
    expect(junit).toMatch(
      /<failure message="flows\/audit.tapir:\d+: step \d+ \(expect --a11y\) failed \(exit 1\): Expected no accessibility findings/,
    )
    // The default trace snaps after each step, so the refs are numbered past the screens it passed.
    expect(junit).toMatch(/e\d+ button "Close" at 88,80 32x32: tap-target 32x32, needs 48x48/)
    expect(junit).not.toMatch(/name="flows\/clean"[^>]*>\s*<failure/)
    const html = readFileSync(join(out, 'report.html'), 'utf8')
    expect(html).toContain(
      '<span class="finding" title="tap-target: Close" style="left:22.00%;top:10.00%;width:8.00%;height:4.00%">1</span>',
    )
    expect(html).toContain('<h4>Accessibility findings</h4>')
    const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      tests: Array<{file: string; attempts: Array<{steps: Array<{findings?: Finding[]}>}>}>
    }
    const audit = json.tests.find((test) => test.file.endsWith('audit.tapir'))!
    const findings = audit.attempts[0]!.steps.at(-1)!.findings!
    expect(findings.map((f) => f.rule)).toEqual(['tap-target', 'label', 'contrast'])
  })
})

describe('tapir:a11y on an app on Dusk 0.0.1', () => {
  let s: SimSession
  beforeAll(async () => {
    s = await simSession({package: 'dusk'})
    expect((await s.run(['tapir:navigate', '--route=/accessibility'])).exitCode).toBe(0)
  })
  afterAll(async () => {
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  it("runs the label rule on 0.0.1's snap and observe, and says the others need geometry 0.0.1 does not give", async () => {
    const result = await s.run(['tapir:a11y', '--json'])
    expect(result.exitCode, result.stderr).toBe(0)
    const audit = JSON.parse(result.stdout) as Audit
    expect(audit.rules).toEqual(['label'])
    expect(audit.findings.map((f) => [f.rule, f.ref, f.label])).toEqual([['label', 'e2', '']])
    expect(audit.notes).toContain(
      'tap-target and contrast did not run: the app gave no view geometry (its rect and pixel ratio), which they need',
    )
  })
})
