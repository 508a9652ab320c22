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
import { gzipSync } from 'node:zlib'
import { fmt, log, markdownTable } from './lib/format.js'
import { median } from './lib/median.js'
import { loadAverage } from './lib/proc-stats.js'
import { scratchPath } from './lib/scratch.js'
import { BROWSER_FIRST_PATH, browserPages, floorPages } from './browser-pages.js'
import { bundlePage, loadSupport, ROOT } from './browser-build.js'
import { captureAnswer, loadOnce } from './browser-load.js'
import { setting } from './switches.js'

/** Issue 32: the simulator's first answer within 1.25× the hand-written handler's. */
const TARGET_RATIO = 1.25

/**
 * @typedef {import('./browser-build.js').Page} Page
 * @typedef {import('./browser-load.js').Load} Load
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

/** @param {number} bytes */
function kB(bytes) {
  return `${(bytes / 1000).toFixed(1)} kB`
}
