/**
 * The page `flutter run -d web-server` would serve, for the simulated app: it reports its window
 * (CSS size, device pixel ratio, touch) to the app whenever that changes, reports the tab being
 * hidden or shown (the engine's lifecycle follows \`visibilitychange\`), and draws every frame the
 * app paints as positioned boxes with real text.
 */
export const PAGE_HTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Monitors (tapir sim)</title>
<style>
  html, body { margin: 0; height: 100%; overflow: hidden; font: 15px/1 "DejaVu Sans", "Open Sans", Arial, sans-serif; }
  #app { position: relative; width: 100vw; height: 100vh; overflow: hidden; }
  .clip { position: absolute; overflow: hidden; }
  .box { position: absolute; white-space: nowrap; display: flex; align-items: center; }
</style>
</head>
<body>
<div id="app"></div>
<script>
const app = document.getElementById('app')
let reported = ''
function report() {
  const view = {width: innerWidth, height: innerHeight, devicePixelRatio, touch: navigator.maxTouchPoints > 0}
  const text = JSON.stringify(view)
  if (text === reported) return
  reported = text
  fetch('/view', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: text}).catch(() => { reported = '' })
}
addEventListener('resize', report)
// Pixel ratio and touch emulation change without a resize event.
setInterval(report, 200)
report()

// A hidden tab: Chrome withholds animation frames, and the app's lifecycle goes hidden.
document.addEventListener('visibilitychange', () => {
  fetch('/lifecycle', {method: 'POST', headers: {'Content-Type': 'text/plain'}, body: document.visibilityState}).catch(() => {})
})

function draw(list) {
  document.body.style.background = list.background
  const nodes = list.boxes.map((box) => {
    const clip = document.createElement('div')
    clip.className = 'clip'
    Object.assign(clip.style, {left: box.visible.left + 'px', top: box.visible.top + 'px', width: box.visible.width + 'px', height: box.visible.height + 'px'})
    const inner = document.createElement('div')
    inner.className = 'box'
    Object.assign(inner.style, {left: (box.rect.left - box.visible.left) + 'px', top: (box.rect.top - box.visible.top) + 'px', width: box.rect.width + 'px', height: box.rect.height + 'px'})
    if (box.text === undefined) inner.style.background = box.colour
    else { inner.style.color = box.colour; inner.textContent = box.text }
    clip.appendChild(inner)
    return clip
  })
  app.replaceChildren(...nodes)
  document.title = 'Monitors (tapir sim) frame ' + list.frame
}

async function follow() {
  let after = -1
  for (;;) {
    try {
      const response = await fetch('/frame?after=' + after)
      const list = await response.json()
      if (list.frame !== after) draw(list)
      after = list.frame
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  }
}
follow()
</script>
</body>
</html>
`
