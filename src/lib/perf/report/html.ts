/** The pieces every perf report page is made of: escaping, numbers as shown, and the page shell. */
import {REPORT_HEAD} from '../../output-file.js'

/** Longest app-provided text shown (a widget name, an insight's title); the rest is cut. */
const MAX_TEXT = 240

const ENTITIES: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}

/** Text as HTML text or an attribute value: markup in it shows as the characters it is. */
export function esc(value: unknown): string {
  const text = String(value ?? '')
  const cut = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text
  // eslint-disable-next-line no-control-regex -- control characters have no place in a page
  return cut.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '\ufffd').replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c)
}

/** A number as the report prints it: at most two decimals, no trailing zeros. */
export function num(value: number | null | undefined, unit = ''): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–'
  return `${Number(value.toFixed(2))}${unit}`
}

export const pct = (value: number | null): string => (value === null ? 'new' : `${value >= 0 ? '+' : ''}${value.toFixed(1)}%`)

/** A value read from a file that may hold anything: the number, or undefined. */
export const numberOr = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)

export type Level = 'error' | 'warn' | 'improved' | 'info' | 'ok' | 'unchanged'

/** A page that needs nothing beyond itself: styles inline, charts inline SVG, no script, and a
 *  policy that lets the browser fetch nothing at all. `head` is the first line that marks the
 *  file as tapir's own (output-file.ts). */
export function selfContainedPage(head: string, title: string, style: string, body: string): string {
  return `${head}<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(title)}</title>
<style>${style}</style>
</head>
<body>
${body}
</body>
</html>
`
}

/** A perf report page. */
export const page = (title: string, body: string): string => selfContainedPage(REPORT_HEAD, title, STYLE, body)

export const section = (title: string, body: string, id?: string): string =>
  `<section${id ? ` id="${esc(id)}"` : ''}><h2>${esc(title)}</h2>\n${body}\n</section>`

/** A key/value strip under a title: scenario, label, target, ... (values escaped here). */
export function facts(pairs: Array<[string, unknown]>): string {
  const shown = pairs.filter(([, value]) => value !== undefined && value !== null && value !== '')
  return `<dl class="facts">${shown.map(([key, value]) => `<div><dt>${esc(key)}</dt><dd>${esc(value)}</dd></div>`).join('')}</dl>`
}

const STYLE = `
:root{--fg:#1e293b;--muted:#64748b;--line:#e2e8f0;--bg:#fff;--panel:#f8fafc;
--build:#2563eb;--raster:#0d9488;--a:#94a3b8;--b:#2563eb;--timing:#ea580c;--budget:#dc2626;
--error:#b91c1c;--error-bg:#fee2e2;--warn:#b45309;--warn-bg:#fef3c7;--improved:#15803d;--improved-bg:#dcfce7;
--info:#475569;--info-bg:#f1f5f9}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1000px;padding:24px 28px 48px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:16px;margin:28px 0 8px;padding-bottom:4px;border-bottom:1px solid var(--line)}
p{margin:6px 0}
.muted,figcaption,caption{color:var(--muted);font-size:12.5px}
caption{text-align:left;padding:0 0 6px}
.facts{display:flex;flex-wrap:wrap;gap:4px 18px;margin:8px 0 0;font-size:12.5px}
.facts div{display:flex;gap:6px}.facts dt{color:var(--muted)}.facts dd{margin:0;font-weight:600}
.verdict{margin:16px 0 4px;padding:12px 16px;border-radius:8px;border-left:6px solid;font-size:18px;font-weight:700}
.verdict small{display:block;font-size:13px;font-weight:400;margin-top:2px}
.level-error{color:var(--error);background:var(--error-bg);border-color:var(--error)}
.level-warn{color:var(--warn);background:var(--warn-bg);border-color:var(--warn)}
.level-improved,.level-ok{color:var(--improved);background:var(--improved-bg);border-color:var(--improved)}
.level-info,.level-unchanged{color:var(--info);background:var(--info-bg);border-color:var(--info)}
table{border-collapse:collapse;width:100%;font-size:12.5px;font-variant-numeric:tabular-nums}
th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left;white-space:normal;word-break:break-all}
th{color:var(--muted);font-weight:600;background:var(--panel)}
tr.level-error td,tr.level-warn td,tr.level-improved td,tr.level-info td{background:none}
tr.level-error{background:var(--error-bg)}tr.level-warn{background:var(--warn-bg)}
tr.level-improved{background:var(--improved-bg)}tr.level-info{background:var(--info-bg)}
.tag{display:inline-block;padding:0 6px;border-radius:9px;font-size:11px;font-weight:700;text-transform:uppercase}
.charts{display:flex;flex-wrap:wrap;gap:16px}
figure{margin:8px 0;padding:8px;background:var(--panel);border:1px solid var(--line);border-radius:8px}
svg{display:block;font:11px system-ui,sans-serif}
svg .axis line,svg .grid{stroke:#cbd5e1}svg .axis text{fill:var(--muted)}
svg .budget{stroke:var(--budget);stroke-width:1.5;stroke-dasharray:5 3}svg .budget-label{fill:var(--budget);font-weight:600}
svg .s-build{fill:var(--build)}svg .s-raster{fill:var(--raster)}svg .s-A{fill:var(--a)}svg .s-B{fill:var(--b)}
svg .s-attribution{fill:var(--build)}svg .s-timing{fill:var(--timing)}svg .s-semanticsOff{fill:#7c3aed}
svg .over{fill:var(--budget)}
svg .name{fill:var(--fg)}
.legend .s-build,.legend .s-attribution{background:var(--build)}.legend .s-raster{background:var(--raster)}
.legend .s-A{background:var(--a)}.legend .s-B{background:var(--b)}.legend .s-timing{background:var(--timing)}.legend .s-semanticsOff{background:#7c3aed}
.legend .over{background:var(--budget)}
.legend{display:flex;gap:14px;font-size:12px;margin:4px 0}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px;border-radius:2px;vertical-align:-1px}
.insight{margin:8px 0;padding:8px 12px;border-radius:6px;border-left:4px solid}
.insight .title{font-weight:600;color:var(--fg)}.insight p{color:var(--fg);font-size:12.5px}
details summary{cursor:pointer;color:var(--muted);margin:8px 0}
a{color:var(--b)}
`
