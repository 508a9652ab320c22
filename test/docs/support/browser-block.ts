/**
 * App code for the browser (`<!-- doc-test: browser -->`), run as an app
 * would run it: bundled by esbuild from the bundler project (so it uses the
 * packed package), served with msw's worker script beside it, and loaded in
 * Debian's Chromium. It must finish (top-level await included) without an
 * error, and afterwards a fetch to `/__mock/health` must be answered inside
 * the browser, never reaching the static server.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { serveStatic } from '../../../examples/browser/static-server.js'
import { launchChromium } from '../../support/chromium.js'

export interface BrowserRun {
  errors: string[]
  /** Status of `fetch('/__mock/health')` in the page after the block ran. */
  healthStatus: number
  /** Requests that reached the static server. */
  requests: string[]
}

/** Runs `blocks/<name>.ts` of the bundler project `dir` in Chromium. */
export async function runInBrowser(dir: string, name: string): Promise<BrowserRun> {
  const site = join(dir, 'site', name)
  mkdirSync(site, { recursive: true })
  // Importing the block statically waits for its top-level await before the flag is set.
  writeFileSync(join(dir, 'blocks', `${name}.entry.ts`), `import './${name}.js'\n;(globalThis as { docTestDone?: boolean }).docTestDone = true\n`)
  await build({
    absWorkingDir: dir,
    entryPoints: [join(dir, 'blocks', `${name}.entry.ts`)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outfile: join(site, 'app.js'),
    logLevel: 'silent',
  })
  // What `npx msw init` copies: the worker script of the installed msw.
  copyFileSync(join(dir, 'node_modules/msw/lib/mockServiceWorker.js'), join(site, 'mockServiceWorker.js'))
  writeFileSync(join(site, 'index.html'), '<!doctype html><title>doc test</title><link rel="icon" href="data:,"><script type="module" src="/app.js"></script>\n')

  const server = await serveStatic(site)
  const browser = await launchChromium()
  const errors: string[] = []
  try {
    const page = await browser.newPage()
    page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    await page.goto(`${server.url}/`)
    await page.waitForFunction(() => (globalThis as { docTestDone?: boolean }).docTestDone === true, undefined, { timeout: 20_000 })
    const healthStatus = await page.evaluate(async () => (await fetch('/__mock/health')).status)
    return { errors, healthStatus, requests: [...server.requests] }
  } finally {
    await browser.close()
    await server.close()
  }
}
