import {createHash} from 'node:crypto'
import {writeOutputFile, type OutputKind} from '../output-file.js'
import type {Trace} from './format.js'

/** The first bytes of every trace page tapir writes. */
export const TRACE_PAGE_HEAD = '<!DOCTYPE html>\n<!-- tapir trace -->\n'

export const TRACE_PAGE_OUTPUT: OutputKind = {
  what: 'a tapir trace page',
  headBytes: TRACE_PAGE_HEAD.length,
  isOwn: (head) => head.toString('utf8') === TRACE_PAGE_HEAD,
}

const ENTITIES: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}
const esc = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c)

/**
 * The trace as one HTML page that needs nothing beyond itself: the trace is embedded as JSON
 * (every `<` escaped, so no text in it can end the block), one inline script whose hash is the
 * only script the page's policy allows, images as data: URLs, and a policy that lets the browser
 * fetch nothing. The script puts every text from the trace into the page as text (textContent),
 * never as markup.
 */
export function tracePage(trace: Trace): string {
  const data = JSON.stringify({
    header: trace.header,
    closed: trace.end !== undefined,
    droppedSteps: trace.end?.droppedSteps ?? 0,
    unreadable: trace.unreadable,
    steps: trace.steps.map((step) => ({...step, screenshot: imageOf(step.screenshot)})),
  })
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
  const hash = createHash('sha256').update(SCRIPT).digest('base64')
  return `${TRACE_PAGE_HEAD}<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(`${trace.header.title} · tapir trace`)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1 id="title"></h1><p id="facts"></p></header>
<nav id="filmstrip" aria-label="Screenshots"></nav>
<div id="main">
<aside><input id="search" type="search" placeholder="Search snapshots, console, output" aria-label="Search"><p id="matches"></p><ol id="steps"></ol></aside>
<section id="detail" aria-live="polite"></section>
</div>
<script type="application/json" id="trace-data">${data}</script>
<script>${SCRIPT}</script>
</body>
</html>
`
}

/** A screenshot as a data: URL, only when it is the JPEG or PNG base64 it claims to be. */
function imageOf(shot: Trace['steps'][number]['screenshot']): string | undefined {
  if (!shot || !/^[A-Za-z0-9+/]*={0,2}$/.test(shot.base64)) return undefined
  const type = shot.format === 'png' ? 'png' : shot.format === 'jpeg' ? 'jpeg' : undefined
  return type ? `data:image/${type};base64,${shot.base64}` : undefined
}

const SCRIPT = `(function(){
var trace=JSON.parse(document.getElementById('trace-data').textContent);
var steps=trace.steps,h=trace.header;
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!==undefined)e.textContent=String(text);return e}
function json(list){return list.map(function(x){return typeof x==='string'?x:JSON.stringify(x)}).join('\\n')}
var failed=steps.filter(function(s){return !s.ok});
document.getElementById('title').textContent=h.title;
document.title=h.title+' \\u00b7 tapir trace';
var facts=['tapir '+h.tapir,'from '+h.source,h.app?'app '+h.app:'',h.device?'device '+h.device:'',h.viewport?h.viewport.width+'\\u00d7'+h.viewport.height+' (logical px)':'','started '+h.startedAt,steps.length+' steps',failed.length+' failed',trace.closed?'':'cut short (no closing line)',trace.droppedSteps?trace.droppedSteps+' steps past the size bound':'',trace.unreadable?trace.unreadable+' unreadable lines':''];
document.getElementById('facts').textContent=facts.filter(Boolean).join(' \\u00b7 ');
if(failed.length)document.body.classList.add('has-failed');
var strip=document.getElementById('filmstrip'),list=document.getElementById('steps'),detail=document.getElementById('detail');
var items=[],frames=[];
steps.forEach(function(s,i){
  var li=el('li',s.ok?'step ok':'step failed');li.dataset.n=s.n;li.tabIndex=0;
  li.appendChild(el('span','n',s.n));li.appendChild(el('code','call',s.call));
  li.appendChild(el('span','result',s.ok?s.durationMs+' ms':'failed (exit '+s.exitCode+')'));
  li.addEventListener('click',function(){select(i)});
  li.addEventListener('keydown',function(e){if(e.key==='Enter')select(i)});
  list.appendChild(li);items.push(li);
  if(s.screenshot){var f=el('button',s.ok?'frame ok':'frame failed');f.dataset.n=s.n;f.title='Step '+s.n+': '+s.call;
    var img=el('img');img.src=s.screenshot;img.alt='After step '+s.n;f.appendChild(img);f.appendChild(el('span','n',s.n));
    f.addEventListener('click',function(){select(i)});strip.appendChild(f);frames.push(f)}
});
if(!frames.length)strip.appendChild(el('p','none','No screenshots in this trace.'));
function part(title,body,cls,id){var sec=el('div','part '+(cls||''));if(id)sec.id=id;sec.appendChild(el('h3','',title));sec.appendChild(body);detail.appendChild(sec)}
function pre(text,cls){return el('pre',cls||'',text)}
function select(i){
  var s=steps[i];
  items.forEach(function(li,j){li.classList.toggle('selected',j===i)});
  frames.forEach(function(f){f.classList.toggle('selected',f.dataset.n===String(s.n))});
  detail.textContent='';
  var head=el('h2',s.ok?'ok':'failed','Step '+s.n+(s.ok?'':' failed (exit '+s.exitCode+')'));detail.appendChild(head);
  detail.appendChild(el('p','meta',[s.via,s.startedAt,s.durationMs+' ms',s.route?'route '+s.route:''].filter(Boolean).join(' \\u00b7 ')));
  part('Command',pre(s.call,'call'),'','d-call');
  part('Output',pre(s.output||'(nothing)'),'','d-output');
  if(s.exceptions&&s.exceptions.length)part('Exceptions during the step',pre(json(s.exceptions),'bad'),'exceptions','d-exceptions');
  else part('Exceptions during the step',el('p','none','None.'),'','d-exceptions');
  var earlier=steps.slice(0,i).filter(function(x){return x.exceptions&&x.exceptions.length});
  if(earlier.length){var first=earlier[0];part('First exception of the trace: during step '+first.n+' ('+first.call+')',pre(json(first.exceptions.slice(-1)),'bad'),'','d-first-exception')}
  if(s.screenshot){var img=el('img','shot');img.src=s.screenshot;img.alt='The app after step '+s.n;part('Screenshot after the step',img,'','d-shot')}
  if(s.diff){var d=el('pre','diff');s.diff.forEach(function(line){d.appendChild(el('span',line.charAt(0)==='+'?'add':line.charAt(0)==='-'?'del':'',line+'\\n'))});
    part('Changes since the step before',s.diff.length?d:el('p','none','The snapshot did not change.'),'','d-diff')}
  if(s.snapshot!==undefined)part('Snapshot after the step',pre(s.snapshot,'snapshot'),'','d-snapshot');
  part('Console during the step',s.console&&s.console.length?pre(json(s.console)):el('p','none','Nothing logged.'),'','d-console');
  if(s.jank)part('Frames',pre(JSON.stringify(s.jank,null,2)),'','d-jank');
  if(s.missing&&s.missing.length)part('Not captured',pre(s.missing.join('\\n')),'','d-missing');
}
var search=document.getElementById('search'),matches=document.getElementById('matches');
search.addEventListener('input',function(){
  var q=search.value.toLowerCase(),n=0;
  steps.forEach(function(s,i){
    var hay=[s.call,s.output,s.snapshot||'',json(s.console||[]),json(s.exceptions||[])].join('\\n').toLowerCase();
    var hit=q!==''&&hay.indexOf(q)>=0;if(hit)n++;
    items[i].classList.toggle('match',hit);items[i].hidden=q!==''&&!hit;
  });
  matches.textContent=q===''?'':n+' step'+(n===1?'':'s')+' match';
});
var first=steps.findIndex(function(s){return !s.ok});
if(steps.length)select(first>=0?first:steps.length-1);else detail.appendChild(el('p','none','This trace holds no step.'));
})();`

const STYLE = `*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,sans-serif;color:#1d2330;background:#f6f7f9}
header{padding:12px 20px;background:#24324a;color:#fff}body.has-failed header{background:#8c1d18}header h1{margin:0 0 2px;font-size:20px}header p{margin:0;opacity:.9}
#filmstrip{display:flex;gap:8px;overflow-x:auto;padding:10px 20px;background:#e8ebf0;border-bottom:1px solid #d0d5dd}
.frame{position:relative;flex:none;border:3px solid #9aa5b5;border-radius:4px;padding:0;background:#fff;cursor:pointer}
.frame.failed{border-color:#b3261e}.frame.selected{outline:3px solid #2563eb}.frame img{display:block;height:120px}
.frame .n{position:absolute;left:0;top:0;background:rgba(0,0,0,.6);color:#fff;font-size:11px;padding:0 4px}
#main{display:flex;align-items:flex-start}aside{width:38%;max-width:460px;padding:10px;border-right:1px solid #d8dce3}
#search{width:100%;padding:5px 8px}#matches{margin:4px 0;color:#566;min-height:1em}
#steps{list-style:none;margin:0;padding:0}.step{display:flex;gap:6px;padding:4px 6px;border-left:5px solid #1f7a3a;margin:2px 0;background:#fff;cursor:pointer}
.step.failed{border-left-color:#b3261e;background:#fdecea}.step.selected{outline:2px solid #2563eb}.step.match{background:#fff7c2}
.step .n{color:#667;min-width:2em}.step .call{flex:1;word-break:break-all}.step .result{color:#566;white-space:nowrap}
#detail{flex:1;padding:10px 20px;min-width:0}#detail h2{margin:4px 0}#detail h2.failed{color:#b3261e}#detail h3{margin:12px 0 4px;font-size:14px}
pre{margin:0;white-space:pre-wrap;word-break:break-word;font:12px/1.4 ui-monospace,monospace;background:#fff;border:1px solid #e1e4ea;padding:6px;max-height:420px;overflow:auto}
pre.bad{background:#fdecea}.diff .add{color:#176c2f}.diff .del{color:#b3261e}img.shot{max-width:360px;border:1px solid #ccd}.none,.meta{color:#667;margin:2px 0}`

/** Writes the trace's page to `path`: a new file, or tapir's own earlier page replaced. */
export function writeTracePage(path: string, trace: Trace): void {
  writeOutputFile(path, tracePage(trace), TRACE_PAGE_OUTPUT)
}
