// @ts-check
// The browser row's pages and tools, built with esbuild: each page's app bundled as an app's bundler would, and the TypeScript support code (static server, Chromium launcher) the bench shares with the example and the tests.

import { readFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { scratchPath } from './lib/scratch.js'

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url))
const HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>first answer</title></head><body><pre id="answer"></pre><script type="module" src="app.js"></script></body></html>\n'

/**
 * @typedef {{ key: string, name: string, app: string, resolveDir?: string }} Page
 * @typedef {{ serveStatic: typeof import('../examples/browser/static-server.js').serveStatic, launchChromium: typeof import('../test/support/chromium.js').launchChromium }} Support
 */

/**
 * The example's static server and the test suite's Chromium launcher are
 * TypeScript: bundled once into the scratch folder, so the bench uses the very
 * same code (flags included) rather than a copy.
 *
 * @example
 * const { serveStatic, launchChromium } = await loadSupport()
 * @returns {Promise<Support>}
 */
export async function loadSupport() {
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
 * @example
 * await bundlePage(site, page, 'dist') // site/<key>/index.html and app.js
 * @param {string} site
 * @param {Page} page
 * @param {'dist' | 'src'} from
 */
export async function bundlePage(site, page, from) {
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
