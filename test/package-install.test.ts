/**
 * The package as a user installs it (issue 32): `npm pack` of the built
 * repository, then what npm installs with it, measured offline from this
 * repository's node_modules (the lockfile's versions). Sizes are file bytes,
 * as npm reports a package's unpacked size; 1 MB is 10^6 bytes.
 *
 * - Packed: the .tgz.
 * - Installed: our unpacked files, plus the files of every package npm
 *   installs with ours (dependencies, theirs in turn, required peers), msw and
 *   what msw brings left out: the app has them already (msw is our peer).
 * - No source map, no install script and no telemetry in what npm installs.
 * - The docs page without the optional swagger-ui-dist, in Chromium.
 * Needs `npm run build` (part of `npm test`).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeConsumer, type PackReport, packReport } from './docs/support/consumers.js'
import { cleanEnv, type RunningServer, startServer } from './docs/support/shell.js'
import { launchChromium } from './support/chromium.js'
import { folderBytes, type Manifest, packageTree, readManifest } from './support/package-tree.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const MODULES = join(ROOT, 'node_modules')
const OUTPUT_DIR = join(ROOT, 'test-output')
const MB = 1_000_000
/** The install scripts npm runs in a consumer's install (`prepare` runs only in a clone or a git install). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall']
/**
 * Everything npm installs with the package. Our own files are held to 5 MB;
 * the rest is what the public types import (zod, @msw/data, faker,
 * @noble/hashes and theirs, docs/dependencies.md), which this keeps from
 * growing unnoticed.
 */
const INSTALL_BUDGET = 20 * MB

const work = mkdtempSync(join(tmpdir(), 'mam-package-'))
let report: PackReport
let manifest: Manifest
/** The packed package, unpacked. */
let unpacked: string

beforeAll(async () => {
  report = packReport()
  unpacked = join(work, 'consumer', 'node_modules', 'multi-area-mock')
  await makeConsumer('esm', join(work, 'consumer'), report.tarball, MODULES)
  manifest = readManifest(unpacked)
}, 120_000)
afterAll(() => {
  rmSync(work, { recursive: true, force: true })
})

/** Bare specifiers in `text`: static and dynamic imports, `export ... from`, `import.meta.resolve`, `import("x")` types. */
function bareImports(text: string): Set<string> {
  const names = new Set<string>()
  // A doc comment's example (`await import('next/headers')`) imports nothing.
  text = text.replace(/\/\*[\s\S]*?\*\//g, '')
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|import\.meta\.resolve\(\s*)["']([^"'./][^"']*)["']/g
  for (const [, specifier] of text.matchAll(pattern)) names.add(packageName(specifier!))
  return names
}

function packageName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

const isBuiltin = (name: string) => name.startsWith('node:') || builtinModules.includes(name)
const packedText = (suffix: RegExp) =>
  report.files.filter((file) => suffix.test(file.path)).map((file) => ({ path: file.path, text: readFileSync(join(unpacked, file.path), 'utf8') }))

describe('the packed package', () => {
  it('is at most 1 MB packed, and holds no source map', () => {
    console.log(`package: ${(report.size / MB).toFixed(2)} MB packed, ${(report.unpackedSize / MB).toFixed(2)} MB unpacked, ${report.files.length} files`)
    expect(report.size).toBeLessThanOrEqual(1 * MB)
    expect(report.files.filter((file) => file.path.endsWith('.map')).map((file) => file.path)).toEqual([])
  })

  it('runs on msw, the optional peers and Node alone: its JavaScript imports no other package', () => {
    const peers = new Set(Object.keys(manifest.peerDependencies ?? {}))
    const imported = new Map<string, string>()
    for (const { path, text } of packedText(/\.js$/)) {
      for (const name of bareImports(text)) if (!isBuiltin(name) && name !== manifest.name) imported.set(name, path)
    }
    const others = [...imported].filter(([name]) => !peers.has(name)).map(([name, path]) => `${name} (${path})`)
    expect(others).toEqual([])
  })

  it('depends only on the packages its declarations import', () => {
    const typed = new Set<string>()
    for (const { text } of packedText(/\.d\.c?ts$/)) for (const name of bareImports(text)) typed.add(name)
    const peers = Object.keys(manifest.peerDependencies ?? {})
    const needed = [...typed].filter((name) => !isBuiltin(name) && name !== manifest.name && !peers.includes(name)).sort()
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual(needed)
  })

  it('installs at most 5 MB of its own files, and the packages npm adds stay within the budget', () => {
    const withMsw = packageTree(['msw'], unpacked)
    const added = [...packageTree(Object.keys(manifest.dependencies ?? {}), unpacked).values()].filter((pkg) => !withMsw.has(pkg.dir))
    const sizes = added.map((pkg) => ({ name: `${pkg.manifest.name}@${pkg.manifest.version}`, bytes: folderBytes(pkg.dir) })).sort((a, b) => b.bytes - a.bytes)
    const total = report.unpackedSize + sizes.reduce((sum, pkg) => sum + pkg.bytes, 0)
    console.log(
      `installed: ${(total / MB).toFixed(2)} MB = ${(report.unpackedSize / MB).toFixed(2)} MB of ours + ${sizes.map((pkg) => `${pkg.name} ${(pkg.bytes / MB).toFixed(2)}`).join(' + ')} (msw's own tree left out)`,
    )
    expect(report.unpackedSize).toBeLessThanOrEqual(5 * MB)
    expect(total).toBeLessThanOrEqual(INSTALL_BUDGET)
  })

  it('runs no install script and brings no telemetry, in itself or in any package npm installs with it', () => {
    const tree = [...packageTree(Object.keys(manifest.dependencies ?? {}), unpacked).values()]
    const scripted = [{ name: manifest.name, manifest }, ...tree]
      .filter((pkg) => INSTALL_SCRIPTS.some((script) => pkg.manifest.scripts?.[script]))
      .map((pkg) => `${pkg.name}: ${JSON.stringify(pkg.manifest.scripts)}`)
    expect(scripted).toEqual([])
    // Its own manifest carries no scripts at all: npm 11 lists a `prepare` as an install script.
    expect(manifest.scripts).toBeUndefined()
    expect(readFileSync(join(ROOT, 'package.json'), 'utf8')).toContain('"prepare": "npm run build"')
    // npm runs `node-gyp rebuild` for a binding.gyp even without an install script.
    expect(tree.filter((pkg) => existsSync(join(pkg.dir, 'binding.gyp'))).map((pkg) => pkg.name)).toEqual([])
    expect(tree.map((pkg) => pkg.name)).not.toContain('@scarf/scarf')
    expect(tree.map((pkg) => pkg.name)).not.toContain('swagger-ui-dist')
  })
})

describe('GET /__mock/docs of the installed package, without swagger-ui-dist', () => {
  let server: RunningServer
  let browser: Browser
  let url: string
  beforeAll(async () => {
    server = await startServer('node node_modules/.bin/multi-area-mock serve --port 0 --quiet', join(work, 'consumer'), cleanEnv())
    url = `http://127.0.0.1:${server.port}`
    browser = await launchChromium()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('says how to get the interactive page, links the document, and lists every operation, with nothing from outside the server', async () => {
    const document = (await (await fetch(`${url}/__mock/openapi.json`)).json()) as { paths: Record<string, Record<string, { summary: string }>> }
    const expected: string[] = []
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of ['get', 'put', 'post', 'delete', 'patch']) if (item[method]) expected.push(`${method.toUpperCase()} ${path} ${item[method]!.summary}`)
    }
    const missing = await fetch(`${url}/__mock/docs/swagger-ui-bundle.js`)
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as { message: string }).message).toContain('npm i -D swagger-ui-dist')

    const page = await browser.newPage()
    const outside: string[] = []
    const errors: string[] = []
    await page.route('**/*', (route) => {
      const requested = route.request().url()
      if (requested.startsWith(`${url}/`) || requested.startsWith('data:')) return route.continue()
      outside.push(requested)
      return route.abort()
    })
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`${url}/__mock/docs`)
    await page
      .locator('#operations tr td.method')
      .nth(expected.length - 1)
      .waitFor({ timeout: 15_000 })
    const shown = await page.locator('#operations tr:has(td)').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent).join(' ')))
    expect(shown.sort()).toEqual(expected.sort())
    await expect(page.getByRole('link', { name: '/__mock/openapi.json' }).getAttribute('href')).resolves.toBe('/__mock/openapi.json')
    expect(await page.locator('aside').innerText()).toContain('npm i -D swagger-ui-dist')
    mkdirSync(OUTPUT_DIR, { recursive: true })
    writeFileSync(join(OUTPUT_DIR, 'docs-page-plain.png'), await page.screenshot({ fullPage: false }))
    expect(outside).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })
})
