// Stand-ins for modules that code in a fast-path bundle loads as it starts but a verb run never
// calls (see scripts/build-fast-path.mjs): each is an object with the real module's property
// names whose getters load the real module on first use, so a run that needs it still gets it.
import {readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join, relative, sep} from 'node:path'
import {pathToFileURL} from 'node:url'

/** The source of a stand-in: `names` are the real module's properties; `load` is the expression
 *  that loads it; `eager` maps a property to an expression evaluated as the stand-in loads. */
export function standInSource({names, esModule, load, eager = {}}) {
  const lazy = names.filter((name) => name !== '__esModule' && !(name in eager))
  return [
    `let real; const load = () => (real ??= ${load});`,
    'const stand = {};',
    esModule ? "Object.defineProperty(stand, '__esModule', {value: true});" : '',
    ...Object.entries(eager).map(
      ([name, value]) => `Object.defineProperty(stand, ${JSON.stringify(name)}, {value: ${value}, enumerable: true});`,
    ),
    `for (const name of ${JSON.stringify(lazy)})`,
    '  Object.defineProperty(stand, name, {get: () => load()[name], set: (value) => { load()[name] = value }, enumerable: true});',
    'module.exports = stand;',
  ].join('\n')
}

/** An esbuild plugin that puts stand-ins in place of:
 *  - `builtins`, Node's own modules, which the stand-in requires from Node;
 *  - `packages`, CommonJS packages, which it requires from node_modules at run time (so they are
 *    not in the bundle at all; `stamped(file)` hears of each package's package.json);
 *  - `partial`, packages of which a few properties are read at start-up: those are evaluated
 *    as the stand-in loads, and the rest of the package is bundled but runs only on first use.
 *  `fromDir` is the bundle's folder, which run-time paths are relative to. */
export function lazyModulesPlugin({builtins, packages, partial, fromDir, stamped}) {
  const requireHere = createRequire(import.meta.url)
  const builtin = new RegExp(`^(node:)?(${builtins.join('|')})$`)
  const named = new RegExp(`^(${[...packages, ...Object.keys(partial)].join('|')})$`)
  return {
    name: 'lazy-modules',
    setup(esbuild) {
      esbuild.onResolve({filter: builtin}, (args) =>
        // The stand-in's own require of the built-in is left to Node.
        args.namespace === 'lazy'
          ? {path: args.path, external: true}
          : {path: `node:${args.path.replace(/^node:/, '')}`, namespace: 'lazy'},
      )
      esbuild.onResolve({filter: named}, (args) => {
        if (args.namespace === 'lazy') return undefined
        // The file this importer would get.
        const path = createRequire(join(args.resolveDir, 'importer.js')).resolve(args.path)
        return {path, namespace: 'lazy', pluginData: {name: args.path}}
      })
      esbuild.onLoad({filter: /.*/, namespace: 'lazy'}, async ({path, pluginData}) => {
        const esModule = !path.startsWith('node:') && isEsModule(path)
        // The properties a require of it gives: of an ES module, its namespace's.
        const real = esModule ? await import(pathToFileURL(path).href) : requireHere(path)
        const names = Object.getOwnPropertyNames(real)
        if (path.startsWith('node:')) {
          return {
            contents: standInSource({names, esModule: false, load: `require(${JSON.stringify(path)})`}),
            loader: 'js',
            resolveDir: fromDir,
          }
        }
        const eager = partial[pluginData.name]
        if (eager) {
          // The absolute path resolves past this plugin: esbuild bundles the package, run on first use.
          return {
            contents: standInSource({names, esModule: real.__esModule, load: `require(${JSON.stringify(path)})`, eager}),
            loader: 'js',
            resolveDir: dirname(path),
          }
        }
        if (esModule)
          throw new Error(`${pluginData.name} (${path}) is an ES module, which Node 20 cannot require unwarned; make it partial`)
        stamped(packageJsonOf(path))
        const place = relative(fromDir, path).split(sep).join('/')
        const load = `require(require('node:path').join(__dirname, ${JSON.stringify(place)}))`
        return {contents: standInSource({names, esModule: real.__esModule, load}), loader: 'js', resolveDir: dirname(path)}
      })
    },
  }
}

function isEsModule(file) {
  if (file.endsWith('.mjs')) return true
  if (file.endsWith('.cjs')) return false
  return JSON.parse(readFileSync(packageJsonOf(file, false), 'utf8')).type === 'module'
}

/** The package.json that rules `file`: the package's own (with a name), or with `named` false
 *  the nearest one, which may only say its folder's module type. */
function packageJsonOf(file, named = true) {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'package.json')
    let pjson
    try {
      pjson = JSON.parse(readFileSync(candidate, 'utf8'))
    } catch {
      continue // none here
    }
    if (!named || pjson.name) return candidate
  }
  throw new Error(`no package.json above ${file}`)
}
