/** The index.html a campaign writes beside its run files: every scenario, pass or fail, linked. */
import {basename} from 'node:path'
import type {RunFile} from '../run-file.js'
import {esc, facts, num, page} from './html.js'
import {writtenAt} from './sections.js'

/** What a campaign says of one scenario. */
export interface CampaignResult {
  scenario: string
  status: 'ok' | 'failed'
  attempts: number
  runFile: string | null
  errFile: string | null
  /** The scenario's report page, beside its run file. */
  report: string | null
}

export interface IndexEntry extends CampaignResult {
  /** The run the scenario wrote, for its numbers. */
  run?: RunFile
}

export interface IndexInput {
  campaign: string
  platform: string
  label: string
  device?: string
  entries: readonly IndexEntry[]
}

/** A link to a file beside the index, by its name. */
const link = (path: string | null, text: string): string =>
  path === null ? '' : `<a href="${esc(encodeURIComponent(basename(path)))}">${esc(text)}</a>`

export function campaignIndexHtml(input: IndexInput): string {
  const failed = input.entries.filter((entry) => entry.status === 'failed').length
  const total = input.entries.length
  const verdict =
    failed === 0
      ? `<div class="verdict level-ok">perf_campaign: all ${total} scenario(s) passed</div>`
      : `<div class="verdict level-error">perf_campaign: ${failed} of ${total} scenario(s) failed<small>Each failed scenario links its error file.</small></div>`
  const rows = input.entries.map((entry) => {
    const summary = entry.run?.summary
    const level = entry.status === 'ok' ? 'ok' : 'error'
    const status = entry.status === 'ok' ? (entry.attempts > 1 ? `ok (attempt ${entry.attempts})` : 'ok') : 'failed'
    return `<tr class="scenario status-${entry.status}" data-scenario="${esc(entry.scenario)}"><td>${esc(entry.scenario)}</td><td><span class="tag level-${level}">${esc(status)}</span></td><td>${num(summary?.frames.painted)}</td><td>${num(summary?.frames.overBudget)}</td><td>${num(summary?.ms['buildMs.p90'])}</td><td>${num(summary?.ms['rasterMs.p90'])}</td><td>${[link(entry.report, 'report'), link(entry.runFile, 'run file'), link(entry.errFile, 'error file')].filter(Boolean).join(' · ')}</td></tr>`
  })
  const body = `<header><h1>perf_campaign ${esc(basename(input.campaign))}</h1>
${facts([
  ['campaign', input.campaign],
  ['platform', input.platform],
  ['device', input.device],
  ['label', input.label],
  ['written', writtenAt()],
])}</header>
${verdict}
<table class="campaign"><caption>Medians of the attribution repeats; build and raster p90 in ms.</caption>
<thead><tr><th>scenario</th><th>status</th><th>painted frames</th><th>over budget</th><th>build p90</th><th>raster p90</th><th>files</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`
  return page(`perf_campaign ${basename(input.campaign)}`, body)
}
