import {selfContainedPage} from '../perf/report/html.js'
import {shownAttempt, totalsOf, type Attempt, type Evidence, type StepRecord, type SuiteReport, type TestRecord} from './report.js'

/** The first bytes of every test report page tapir writes. */
export const TEST_REPORT_HEAD = '<!DOCTYPE html>\n<!-- tapir test report -->\n'

/** Longest text shown in one place (a step's output, a snapshot). */
const MAX_TEXT = 20_000

const ENTITIES: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}

function esc(value: unknown, max = 400): string {
  const text = String(value ?? '')
  const cut = text.length > max ? `${text.slice(0, max)}…` : text
  // eslint-disable-next-line no-control-regex -- control characters have no place in a page
  return cut.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '\ufffd').replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c)
}

/**
 * The report as one HTML page that needs nothing beyond itself (styles inline, screenshots as
 * data: images, no script, a policy that lets the browser fetch nothing): the verdict, then each
 * test with its steps and times, and for a failure what tapir saw then. `image` reads a screenshot
 * named relative to the report's folder (undefined when it is gone).
 */
export function htmlReport(report: SuiteReport, image: (path: string) => Buffer | undefined): string {
  const totals = totalsOf(report)
  const verdict = totals.failed > 0 ? 'failed' : totals.flaky > 0 ? 'flaky' : 'passed'
  const headline =
    totals.failed > 0
      ? `${totals.failed} of ${totals.total} tests failed`
      : totals.flaky > 0
        ? `All ${totals.total} tests passed, ${totals.flaky} only on a retry`
        : `All ${totals.total} tests passed`
  const shard = report.shard ? ` · shard ${report.shard.index} of ${report.shard.total}` : ''
  const body = `<header class="${verdict}"><h1>${esc(headline)}</h1>
<p>${totals.passed} passed · ${totals.failed} failed · ${totals.flaky} flaky · ${seconds(report.durationMs)} · started ${esc(report.startedAt)} · each test from ${esc(freshWords(report.fresh))}${shard}</p></header>
<main>
${report.tests.map((test) => testHtml(test, image)).join('\n')}
</main>`
  return selfContainedPage(TEST_REPORT_HEAD, `${headline} · tapir test`, STYLE, body)
}

function freshWords(fresh: string): string {
  return fresh === 'restart' ? 'a hot restart' : fresh === 'start' ? 'a newly started app' : 'the app as the last test left it'
}

function testHtml(test: TestRecord, image: (path: string) => Buffer | undefined): string {
  const shown = shownAttempt(test)
  const retries = test.attempts.length > 1 ? ` · ${test.attempts.length} attempts` : ''
  const earlier = test.attempts.filter((attempt) => attempt !== shown)
  return `<details class="test ${test.status}"${test.status === 'passed' ? '' : ' open'}>
<summary><span class="status">${test.status}</span> <span class="file">${esc(test.file)}</span> <span class="time">${seconds(test.durationMs)}${retries}</span></summary>
${shown.failure ? `<p class="failure">${esc(shown.failure.message, 2000)}</p>` : ''}
${shown.trace ? traceLink(shown.trace) : ''}
${stepsTable(shown)}
${shown.evidence ? evidenceHtml(shown.evidence, image, shown) : ''}
${earlier.map((attempt) => `<details class="attempt"><summary>Earlier attempt, ${attempt.passed ? 'passed' : 'failed'}</summary>${attempt.failure ? `<p class="failure">${esc(attempt.failure.message, 2000)}</p>` : ''}${attempt.trace ? traceLink(attempt.trace) : ''}${stepsTable(attempt)}${attempt.evidence ? evidenceHtml(attempt.evidence, image, attempt) : ''}</details>`).join('\n')}
</details>`
}

/** A link to the attempt's trace (relative to the report), and the command that shows it. */
function traceLink(trace: string): string {
  return `<p class="trace">Trace: <a href="${esc(trace)}">${esc(trace)}</a> · see every step with <code>tapir show-trace ${esc(trace)}</code> (from the report's folder)</p>`
}

function stepsTable(attempt: Attempt): string {
  if (attempt.steps.length === 0) return '<p class="none">No step ran.</p>'
  const rows = attempt.steps.map(
    (step, index) =>
      `<tr class="${step.ok ? 'ok' : 'bad'}"><td>${index + 1}</td><td>${step.line ?? ''}</td><td><code>${esc(step.step)}</code></td><td>${step.ok ? 'ok' : `failed (exit ${step.exitCode})`}</td><td>${step.durationMs} ms</td><td><pre>${esc(step.output, 1000)}</pre></td></tr>`,
  )
  return `<table><thead><tr><th>#</th><th>line</th><th>step</th><th>result</th><th>time</th><th>output</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
}

function evidenceHtml(evidence: Evidence, image: (path: string) => Buffer | undefined, attempt: Attempt): string {
  const parts: string[] = ['<section class="evidence"><h3>What the app showed when it failed</h3>']
  const bytes = evidence.screenshot ? image(evidence.screenshot) : undefined
  const a11y = attempt.steps.findLast((step) => step.findings !== undefined)
  if (bytes)
    parts.push(
      `<figure><div class="shot"><img class="screenshot" alt="The app at the failure" src="data:image/${bytes[0] === 0xff ? 'jpeg' : 'png'};base64,${bytes.toString('base64')}">${a11y ? findingBoxes(a11y) : ''}</div><figcaption>${esc(evidence.screenshot)}</figcaption></figure>`,
    )
  if (a11y?.findings)
    parts.push(
      `<h4>Accessibility findings</h4><ol class="findings">${a11y.findings.map((f) => `<li><code>${esc(f.ref ?? 'text')}</code> ${esc(f.rule)}: ${esc(f.label)} ${esc(f.measured)}, needs ${esc(f.threshold)}. ${esc(f.fix)}</li>`).join('')}</ol>`,
    )
  if (evidence.snapshot !== undefined) parts.push(`<h4>Snapshot</h4><pre class="snapshot">${esc(evidence.snapshot, MAX_TEXT)}</pre>`)
  parts.push(`<h4>Exceptions since the test began</h4>${entries(evidence.exceptions, 'No exception.')}`)
  parts.push(`<h4>Console since the test began</h4>${entries(evidence.console, 'Nothing logged.')}`)
  if (evidence.missing?.length)
    parts.push(`<h4>Not captured</h4><ul>${evidence.missing.map((line) => `<li>${esc(line)}</li>`).join('')}</ul>`)
  parts.push('</section>')
  return parts.join('\n')
}

/** Each finding's rect over the screenshot, in percent of the view the rects are in, numbered as the list below it. */
function findingBoxes(step: StepRecord): string {
  const view = step.view
  if (!view || view.w <= 0 || view.h <= 0) return ''
  const pct = (n: number, of: number): string => `${((n / of) * 100).toFixed(2)}%`
  return (step.findings ?? [])
    .flatMap((f, index) =>
      f.rect
        ? [
            `<span class="finding" title="${esc(`${f.rule}: ${f.label}`)}" style="left:${pct(f.rect.x - view.x, view.w)};top:${pct(f.rect.y - view.y, view.h)};width:${pct(f.rect.w, view.w)};height:${pct(f.rect.h, view.h)}">${index + 1}</span>`,
          ]
        : [],
    )
    .join('')
}

function entries(list: unknown[] | undefined, none: string): string {
  if (!list || list.length === 0) return `<p class="none">${none}</p>`
  return `<pre class="entries">${esc(list.map((entry) => JSON.stringify(entry)).join('\n'), MAX_TEXT)}</pre>`
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{padding:16px 24px;color:#fff}header.passed{background:#1f7a3a}header.failed{background:#b3261e}header.flaky{background:#a15c00}
header h1{margin:0 0 4px;font-size:22px}header p{margin:0}
main{padding:16px 24px}
details.test{background:#fff;border:1px solid #d8dce3;border-left:6px solid #999;border-radius:4px;margin:0 0 12px;padding:8px 12px}
details.test.passed{border-left-color:#1f7a3a}details.test.failed{border-left-color:#b3261e}details.test.flaky{border-left-color:#a15c00}
summary{cursor:pointer;font-weight:600}.status{text-transform:uppercase;font-size:12px;padding:1px 6px;border-radius:3px;background:#eee}
.failed>summary .status{background:#b3261e;color:#fff}.passed>summary .status{background:#1f7a3a;color:#fff}.flaky>summary .status{background:#a15c00;color:#fff}
.time{color:#566;font-weight:400;margin-left:8px}.failure{color:#b3261e;font-weight:600}
table{border-collapse:collapse;width:100%;margin:8px 0}td,th{border-bottom:1px solid #e4e7ec;padding:3px 6px;text-align:left;vertical-align:top}
tr.bad td{background:#fdecea}pre{margin:0;white-space:pre-wrap;word-break:break-word;font:12px/1.4 ui-monospace,monospace}
pre.snapshot,pre.entries{background:#f1f3f6;padding:8px;max-height:420px;overflow:auto}
img.screenshot{max-width:360px;border:1px solid #ccd;display:block}.shot{position:relative;display:inline-block}.finding{position:absolute;box-sizing:border-box;border:2px solid #d0021b;color:#d0021b;font:700 11px sans-serif;padding:0 2px}.none{color:#667}`
