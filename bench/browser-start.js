// @ts-check
// The browser row: how long after navigation an app gets its first simulated answer, multi-area-mock/browser against a hand-written msw handler, in Chromium.

/**
 * Issue 32's browser row. Two pages (bench/browser-pages.js, `browserPages`),
 * each an app bundled by esbuild as an app's bundler would (ES modules,
 * `platform: 'browser'`, unminified as in development, code splitting on, so
 * a dynamic `import()` is its own file), served from 127.0.0.1 with msw's
 * `mockServiceWorker.js` from the installed msw:
 *
 *   simulator  `await startBrowserSimulator()` from `multi-area-mock/browser`, then `fetch` Area A's users
 *   msw        `setupWorker(http.get(...))` answering the same JSON (captured from the simulator first), then the same `fetch`
 *
 * Each load is a fresh browser context (no service worker registered, nothing
 * cached) in Debian's Chromium, headless, with the flags of
 * test/support/chromium.ts. Pairs alternate which page loads first; one pair
 * before them is not counted. The figure is the time from navigation start to
 * the answer's text in the page (`performance.now()` there); the row is the
 * median of each page and their ratio (target ≤ 1.25), with the load average,
 * each page's JavaScript (raw and gzipped) and where its time went.
 *
 *   npm run bench -- --browser                      # builds the package, then the row
 *   node bench/run.js --browser                     # the row alone, on the current build (dist/)
 *   BENCH_BROWSER_FROM=src node bench/run.js --browser  # bundles src/browser/index.ts instead of the build (no build needed)
 *   BENCH_BROWSER_PAIRS=30 node bench/run.js --browser
 *   BENCH_BROWSER_FLOORS=1 node bench/run.js --browser  # also the floors: the msw page with zod, faker, both (browser-pages.js `floorPages`)
 *   BENCH_BROWSER_COMPARE=../prev node bench/run.js --browser  # also another build's page (its dist/ built), same run
 *
 * Exits non-zero when a page does not render a 200 answer, when the static
 * server saw the simulated request (the worker did not answer it), or when the
 * ratio misses its target.
 *
 * @example
 * process.exitCode = await runBrowserStart()
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { fmt, log, markdownTable } from './lib/format.js'
import { median } from './lib/median.js'
import { loadAverage } from './lib/proc-stats.js'
import { scratchPath } from './lib/scratch.js'
import { BROWSER_FIRST_PATH, browserPages, floorPages } from './browser-pages.js'
import { setting } from './switches.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** Issue 32: the simulator's first answer within 1.25× the hand-written handler's. */
const TARGET_RATIO = 1.25
const HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>first answer</title></head><body><pre id="answer"></pre><script type="module" src="app.js"></script></body></html>\n'

/**
 * @typedef {{ key: string, name: string, app: string, resolveDir?: string }} Page
 * @typedef {{ evaluated: number, started: number, answered: number }} Load times in ms since navigation start
 * @typedef {{ serveStatic: typeof import('../examples/browser/static-server.js').serveStatic, launchChromium: typeof import('../test/support/chromium.js').launchChromium }} Support
 */

/** Runs the row; resolves with the exit code. */
export async function runBrowserStart() {
  const pairs = setting('BENCH_BROWSER_PAIRS')
  const from = setting('BENCH_BROWSER_FROM')
  if (from !== 'dist' && from !== 'src') throw new Error(`BENCH_BROWSER_FROM must be "dist" or "src", got "${from}"`)
  log(
    `browser row: first simulated answer after navigation, ${pairs} pairs of fresh contexts (+1 not counted), multi-area-mock/browser from ${from === 'src' ? 'src/' : 'the build (dist/)'}`,
  )
  log(`load average at the start: ${loadAverage(', ')}`)
  const support = await loadSupport()
  const site = scratchPath('browser-site')
  mkdirSync(site, { recursive: true })
  const mswRoot = dirname(createRequire(join(ROOT, 'package.json')).resolve('msw/package.json'))
  cpSync(join(mswRoot, 'lib', 'mockServiceWorker.js'), join(site, 'mockServiceWorker.js'))

  const server = await support.serveStatic(site)
  const browser = await support.launchChromium()
  try {
    // The simulator page first, once: its answer is what the msw page answers.
    const [simulatorPage] = browserPages('null')
    await bundlePage(site, /** @type {Page} */ (simulatorPage), from)
    const answer = await captureAnswer(browser, server.url)
    /** @type {Page[]} */
    const pages = browserPages(answer)
    await bundlePage(site, /** @type {Page} */ (pages.find((page) => page.key === 'msw')), from)
    const other = setting('BENCH_BROWSER_COMPARE')
    if (other) {
      // Another build's browser entry, bundled as the app bundles this one's: a before/after in the same run.
      const entry = join(other, 'dist', 'src', 'browser', 'index.js')
      const page = {
        key: 'simulator-other',
        name: `multi-area-mock/browser of ${other}`,
        app: /** @type {Page} */ (simulatorPage).app.replace("'multi-area-mock/browser'", JSON.stringify(entry)),
      }
      pages.push(page)
      await bundlePage(site, page, from)
    }
    if (setting('BENCH_BROWSER_FLOORS')) {
      const floors = floorPages(answer, ROOT)
      const resolveDir = join(site, 'floor-modules')
      mkdirSync(resolveDir, { recursive: true })
      for (const [name, text] of Object.entries(floors.modules)) writeFileSync(join(resolveDir, name), text)
      for (const page of floors.pages) {
        pages.push({ ...page, resolveDir })
        await bundlePage(site, { ...page, resolveDir }, from)
      }
    }

    /** @type {Record<string, Load[]>} */
    const loads = Object.fromEntries(pages.map((page) => [page.key, []]))
    /** @type {number[]} */
    const ratios = []
    for (let pair = 0; pair <= pairs; pair++) {
      const order = pair % 2 === 0 ? pages : [...pages].reverse()
      /** @type {Record<string, Load>} */
      const seen = {}
      for (const page of order) seen[page.key] = await loadOnce(browser, `${server.url}/${page.key}/`, answer)
      if (pair === 0) continue
      for (const page of pages) loads[page.key]?.push(/** @type {Load} */ (seen[page.key]))
      ratios.push(/** @type {Load} */ (seen.simulator).answered / /** @type {Load} */ (seen.msw).answered)
    }
    const leaked = server.requests.filter((line) => line.includes(BROWSER_FIRST_PATH))
    if (leaked.length > 0) throw new Error(`the static server saw simulated requests: ${leaked.join(', ')}`)

    const mswAnswered = median(/** @type {Load[]} */ (loads.msw).map((load) => load.answered))
    const rows = pages.map((page) => {
      const times = /** @type {Load[]} */ (loads[page.key])
      const size = loadedScripts(site, page.key, server.requests)
      const at = (/** @type {keyof Load} */ key) => median(times.map((load) => load[key]))
      return [
        `${page.key} (${page.name})`,
        fmt(at('answered'), 0),
        fmt(at('answered') / mswAnswered, 2),
        `${fmt(Math.min(...times.map((load) => load.answered)), 0)}–${fmt(Math.max(...times.map((load) => load.answered)), 0)}`,
        fmt(at('evaluated'), 0),
        fmt(at('started') - at('evaluated'), 0),
        fmt(at('answered') - at('started'), 0),
        kB(size.raw),
        kB(size.gzipped),
        String(size.files),
      ]
    })
    log('')
    log('ms since navigation start, medians; bundles as the page loads them (all its JavaScript files, unminified)')
    log('')
    for (const line of markdownTable(['page', 'first answer', '× msw', 'range', 'app evaluated', 'start', 'fetch', 'JS raw', 'JS gzipped', 'files'], rows)) log(line)
    const ratio = median(/** @type {Load[]} */ (loads.simulator).map((load) => load.answered)) / mswAnswered
    const met = ratio <= TARGET_RATIO
    log('')
    log(`ratio of the medians: ${fmt(ratio, 2)} (median of the pairs' ratios ${fmt(median(ratios), 2)}); target ≤ ${TARGET_RATIO}: ${met ? 'met' : 'NOT MET'}`)
    log(`load average at the end: ${loadAverage(', ')}`)
    return met ? 0 : 1
  } finally {
    await browser.close()
    await server.close()
  }
}

/**
 * The example's static server and the test suite's Chromium launcher are
 * TypeScript: bundled once into the scratch folder, so the bench uses the very
 * same code (flags included) rather than a copy.
 *
 * @returns {Promise<Support>}
 */
async function loadSupport() {
  const file = `${scratchPath('browser-support')}.mjs`
  await build({
    stdin: {
      contents: `export { serveStatic } from './examples/browser/static-server.ts'\nexport { launchChromium } from './test/support/chromium.ts'\n`,
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: file,
    logLevel: 'warning',
  })
  // Its bare imports (playwright-core) resolve from the repository, not from the scratch folder.
  writeFileSync(file, readFileSync(file, 'utf8').replace(/from "playwright-core"/g, `from ${JSON.stringify(import.meta.resolve('playwright-core'))}`))
  return import(pathToFileURL(file).href)
}

/**
 * Bundles one page into `site/<key>/`: its app as an app's bundler would
 * (`multi-area-mock/browser` through the package's exports, or from `src/`),
 * and its HTML. A chunk the page never imports (msw's GraphQL support) is
 * written but not loaded, so sizes count what the page requested.
 *
 * @param {string} site
 * @param {Page} page
 * @param {'dist' | 'src'} from
 */
async function bundlePage(site, page, from) {
  const dir = join(site, page.key)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'index.html'), HTML)
  await build({
    stdin: { contents: page.app, resolveDir: page.resolveDir ?? ROOT, sourcefile: 'app.js', loader: 'js' },
    // A floor page's chunks are in the scratch folder; their packages are the repository's.
    nodePaths: [join(ROOT, 'node_modules')],
    entryNames: 'app',
    outdir: dir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    alias: from === 'src' ? { 'multi-area-mock/browser': join(ROOT, 'src', 'browser', 'index.ts') } : {},
    logLevel: 'warning',
  })
}

/**
 * The JavaScript files a page requested from the static server, and their size.
 *
 * @param {string} site
 * @param {string} key
 * @param {readonly string[]} requests the static server's `GET /path` lines
 */
function loadedScripts(site, key, requests) {
  const paths = [...new Set(requests.filter((line) => line.startsWith(`GET /${key}/`) && line.endsWith('.js')).map((line) => line.slice(4)))]
  const bytes = paths.map((path) => readFileSync(join(site, path)))
  return {
    raw: bytes.reduce((sum, file) => sum + file.length, 0),
    gzipped: bytes.reduce((sum, file) => sum + gzipSync(file, { level: 9 }).length, 0),
    files: paths.length,
  }
}

/**
 * Loads the simulator page once and returns the JSON it rendered.
 *
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 */
async function captureAnswer(browser, url) {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(`${url}/simulator/`)
    await page.waitForSelector('body[data-answered]', { timeout: 30_000 })
    const status = await page.getAttribute('body', 'data-status')
    const text = (await page.textContent('#answer')) ?? ''
    if (status !== '200') throw new Error(`the simulator page answered ${status}: ${text.slice(0, 200)}`)
    JSON.parse(text)
    return text
  } finally {
    await context.close()
  }
}

/**
 * One load of a page in a fresh context: its times, after checking it rendered `answer` with a 200.
 *
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {string} answer
 * @returns {Promise<Load>}
 */
async function loadOnce(browser, url, answer) {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    /** @type {string[]} */
    const errors = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(url)
    await page.waitForSelector('body[data-answered]', { timeout: 30_000 }).catch((error) => {
      throw new Error(`${url} rendered no answer${errors.length ? `: ${errors.join('; ')}` : ''} (${error.message})`)
    })
    /** @type {{ status?: string, evaluated?: string, started?: string, answered?: string, text: string }} */
    const data = await page.evaluate("({ ...document.body.dataset, text: document.querySelector('#answer')?.textContent ?? '' })")
    if (data.status !== '200') throw new Error(`${url} answered ${data.status}: ${data.text.slice(0, 200)}`)
    if (shape(JSON.parse(data.text)) !== shape(JSON.parse(answer))) throw new Error(`${url} rendered another kind of answer than the simulator's first: ${data.text.slice(0, 200)}`)
    return { evaluated: Number(data.evaluated), started: Number(data.started), answered: Number(data.answered) }
  } finally {
    await context.close()
  }
}

/**
 * The keys and list lengths of a JSON value, not its values: a page seeded on the
 * system clock answers other timestamps at every load, but the same users.
 *
 * @param {unknown} value
 * @returns {string}
 */
function shape(value) {
  if (Array.isArray(value)) return `[${value.length}:${value.map(shape).join(',')}]`
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, inner]) => `${key}:${shape(inner)}`)
      .join(',')}}`
  return typeof value
}

/** @param {number} bytes */
function kB(bytes) {
  return `${(bytes / 1000).toFixed(1)} kB`
}
