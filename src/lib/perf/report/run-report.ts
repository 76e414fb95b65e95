/** tapir:perf_run --html: one run on one page. */
import {blockBars, timeline} from './charts.js'
import {esc, facts, num, page, section} from './html.js'
import {buildModeNote, count} from './plain-words.js'
import {SERIES_LABELS, seriesFrames, type RepeatView, type RunView} from './run-data.js'
import {distribution, insightCards, writtenAt} from './sections.js'

/** Blocks shown by self time. */
const TOP_BLOCKS = 10

function repeatTimeline(repeat: RepeatView, number: number, budgetMs: number, topMs: number): string {
  const name = `Repeat ${repeat.index + 1} (${repeat.series})`
  if (repeat.refused) return `<p class="refused">${esc(name)}: refused. ${esc(repeat.reason)}</p>`
  if (repeat.framesMissing) return `<p class="muted">${esc(name)}: no frame times, ${esc(repeat.framesMissing)}.</p>`
  const over = repeat.frames.filter(([, , build, raster]) => build > budgetMs || raster > budgetMs).length
  return timeline(
    repeat.frames,
    budgetMs,
    topMs,
    `${name}: ${repeat.frames.length} painted frames, ${over} over the budget`,
    String(number),
  )
}

export function runReportHtml(view: RunView, runPath: string): string {
  const {run, budgetMs, repeats} = view
  const name = run.scenario.name ?? 'scenario'
  const {summary} = run
  const measured = summary.repeats > 0
  const verdict = measured ? measuredVerdict(name, view) : refusedVerdict(name, summary.refused)
  const series = Object.entries(SERIES_LABELS)
    .map(([key, label]) => ({key, label, frames: seriesFrames(repeats, key)}))
    .filter((s) => s.frames.length > 0)
  const allFrames = series.flatMap((s) => s.frames)
  // A loop, not Math.max(...frames): a run can hold more frames than a call takes arguments.
  const topMs = allFrames.reduce((top, [, , build, raster]) => Math.max(top, build, raster), budgetMs * 1.2)
  const distributionPart =
    series.length === 0
      ? '<p class="muted">No measured repeat has frame times, so there is no distribution to draw.</p>'
      : `${series.some((s) => s.key === 'attribution') && series.length > 1 ? '<p class="muted">Attribution repeats run with the build profiler on, so their milliseconds are inflated; the timing repeats are the ones to compare.</p>' : ''}${distribution(
          series.map((s) => ({key: s.key, label: s.label, build: s.frames.map((f) => f[2]), raster: s.frames.map((f) => f[3])})),
          budgetMs,
        )}`
  const blocks = [...view.blocks.values()].sort((x, y) => y.selfMsPerFrame - x.selfMsPerFrame).slice(0, TOP_BLOCKS)
  const blocksPart =
    blocks.length === 0
      ? '<p class="muted">No widget block was reported (timing-only run, or profiling reported none).</p>'
      : `${blockBars(
          blocks.map((block) => ({name: block.name, values: [block.selfMsPerFrame]})),
          [{key: 'build', label: 'self ms per painted frame (median of the repeats)'}],
          'self ms per painted frame',
        )}
<table><thead><tr><th>widget</th><th>self ms per frame</th><th>builds per frame</th></tr></thead><tbody>${blocks
          .map((block) => `<tr><td>${esc(block.name)}</td><td>${num(block.selfMsPerFrame)}</td><td>${num(block.countPerFrame)}</td></tr>`)
          .join('')}</tbody></table>`
  const body = `<header><h1>perf_run ${esc(name)}</h1>
${facts([
  ['label', run.label],
  ['variant', run.variant],
  ['target', run.env.target],
  ['device', run.env.device],
  ['build mode', run.env.buildMode],
  ['renderer', run.env.renderer],
  ['emulator', run.env.emulator],
  ['run file', runPath],
  ['written', writtenAt()],
])}</header>
${verdict}
${buildModeBanner(run.env.buildMode)}
${section('Frame times', distributionPart, 'distribution')}
${section('Frame timeline of each repeat', `<div class="legend"><span><i class="s-build"></i>build</span><span><i class="s-raster"></i>raster</span><span><i class="over"></i>over the budget</span></div>${repeats.map((repeat, index) => repeatTimeline(repeat, index + 1, budgetMs, topMs)).join('\n')}`, 'timelines')}
${section('Widget blocks by self time', blocksPart, 'blocks')}
${section('Insights (median repeat)', insightCards(view.insights), 'insights')}`
  return page(`perf_run ${name}`, body)
}

/** The verdict's colour and headline follow what was measured: red when an insight is an error
 *  or most frames ran over the budget, amber when any did or an insight warns, green otherwise. */
function measuredVerdict(name: string, view: RunView): string {
  const {run, budgetMs} = view
  const {summary} = run
  const painted = summary.frames.painted
  const over = summary.frames.overBudget
  const severities = new Set(view.insights.map((insight) => insight.severity))
  const level =
    severities.has('error') || (painted > 0 && over * 2 > painted) ? 'error' : severities.has('warn') || over > 0 ? 'warn' : 'ok'
  const frames = `${num(over)} of ${num(painted)} painted frames over the ${num(budgetMs)} ms budget`
  const headline =
    level === 'error'
      ? `Too slow: ${frames}`
      : level === 'warn'
        ? over > 0
          ? `Some frames too slow: ${frames}`
          : 'Smooth frames, with warnings below'
        : `Smooth: no painted frame over the ${num(budgetMs)} ms budget`
  const refused = summary.refused > 0 ? `, ${count(summary.refused, 'repeat')} refused` : ''
  return `<div class="verdict level-${level}">perf_run ${esc(name)}: ${esc(headline)}<small>${count(summary.repeats, 'repeat')} measured${refused}; the frame counts are medians of the repeats; build p90 ${num(summary.ms['buildMs.p90'])} ms, raster p90 ${num(summary.ms['rasterMs.p90'])} ms</small></div>`
}

function refusedVerdict(name: string, refused: number): string {
  return `<div class="verdict level-error">perf_run ${esc(name)}: nothing was measured, every repeat was refused (${refused})<small>Bring the app to the front and run it again.</small></div>`
}

function buildModeBanner(mode: unknown): string {
  const note = buildModeNote(mode)
  return `<p class="build-mode insight level-${note.level}">${esc(note.text)}</p>`
}
