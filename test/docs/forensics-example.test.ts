/**
 * The worked example of docs/forensics.md, run as written, in order, and the
 * two screenshots it shows, taken from the real pages. Its blocks are marked
 * `doc-test: skip … forensics-example.test.ts` (doc-blocks.test.ts runs a
 * block against one fresh server; this story needs a Playwright run, then
 * replays of what it left). Needs `npm run build` and Debian's Chromium.
 *
 * - A ```ts block whose first line is `// <path>` is written to that path of
 *   a scratch project (with `multi-area-mock`, `@playwright/test` and the
 *   `multi-area-mock` command linked in its node_modules); the config's port
 *   4000 is mapped to a free one.
 * - `npx playwright test` runs Playwright there with a config that adds only
 *   Debian's Chromium to the doc's (`forensics.config.ts`); the test must
 *   fail, and its HTML report is served as a static folder and photographed
 *   at 1280×800 on the failed test, its `mock-world` attachment open.
 * - `npx multi-area-mock serve …` starts the built CLI in the project on a free
 *   port (replacing the server there, as in a terminal).
 * - Any other shell block runs with bash, its doc ports mapped, its curl
 *   statuses checked as in the doc tests, nothing on stderr; after the one
 *   reading the history, the inspector is photographed on the time line at
 *   command 3, Products open, as the doc shows it there; a ```text block
 *   is its output, exactly, or after a `serve` block a line the server printed
 *   (the folder, instants and version, which are this run's, left out of both).
 *
 * Screenshots go to test-output/forensics/; with UPDATE_DOC_IMAGES=1, to
 * docs/images/ too (how forensics-report.png and forensics-timeline.png are made).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { once } from 'node:events'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { CHROMIUM_ARGS, CHROMIUM_PATH, launchChromium } from '../support/chromium.js'
import { CLI } from '../support/cli-server.js'
import { type DocBlock, blocksOf } from './support/blocks.js'
import { cleanEnv, curlWrapper, expectBlockRan, runShell } from './support/shell.js'
import { serveFolder } from './support/static-folder.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const DOCUMENT = 'docs/forensics.md'
const MARK = 'forensics-example.test.ts'
const SERVE = /^npx multi-area-mock serve(?: |$)/
const PLAYWRIGHT = createRequire(import.meta.url).resolve('@playwright/test/cli')
const OUT = join(ROOT, 'test-output', 'forensics')
const IMAGES = join(ROOT, 'docs', 'images')
const SHOTS = { report: 'forensics-report.png', timeline: 'forensics-timeline.png' }
const VIEWPORT = { width: 1280, height: 800 }

interface Server {
  docPort: string
  port: string
  child: ChildProcessWithoutNullStreams
  stdout(): string
}

const alive = (server: Server) => server.child.exitCode === null && server.child.signalCode === null

/** `npx multi-area-mock serve …` as written, in `cwd`, on a free port. */
async function serve(command: string, cwd: string): Promise<Server> {
  const words = command.trim().split(/\s+/).slice(3)
  const at = words.indexOf('--port')
  const docPort = at === -1 ? '4000' : words.splice(at, 2)[1]!
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...words], { cwd, stdio: 'pipe', env: cleanEnv() })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`\`${command}\` printed no banner within 15 s.\n${out}`)), 15_000)
    child.once('exit', (code) => reject(new Error(`\`${command}\` exited (${code}) before listening.\n${out}`)))
    child.stdout.on('data', () => {
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
      // The replay's line comes last: wait for it too.
      if (match && (!words.includes('--replay') || /^Replayed .*\)$/m.test(out))) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
  })
  return { docPort, port, child, stdout: () => out }
}

async function stop(server: Server): Promise<void> {
  if (!alive(server)) return
  const exited = once(server.child, 'exit')
  server.child.kill('SIGINT')
  await exited
}

function mapPorts(text: string, ports: ReadonlyMap<string, string>): string {
  return text.replace(/\b(?:localhost|127\.0\.0\.1):(\d+)\b/g, (whole, port: string) => (ports.has(port) ? `127.0.0.1:${ports.get(port)}` : whole))
}

/** What differs from run to run in a replay's banner: the bundle's folder, the instant it was taken, the package version. */
function steady(text: string): string {
  return text
    .replace(/\/\S*\/([\w.-]+\.json)/g, '$1')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<instant>')
    .replace(/multi-area-mock \d+\.\d+\.\d+\S*\)/g, 'multi-area-mock <version>)')
}

async function freePort(): Promise<string> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return String(port)
}

/** A project as a user has it: the package, Playwright and the command in node_modules (links to this repository's). */
function makeProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shop-'))
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true })
  mkdirSync(join(dir, 'node_modules/@playwright'), { recursive: true })
  symlinkSync(ROOT, join(dir, 'node_modules/multi-area-mock'))
  symlinkSync(join(ROOT, 'node_modules/@playwright/test'), join(dir, 'node_modules/@playwright/test'))
  symlinkSync(CLI, join(dir, 'node_modules/.bin/multi-area-mock'))
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'shop', private: true, type: 'module' }, null, 2)}\n`)
  // The doc's config, with Debian's Chromium: the one thing a machine without Playwright's browsers needs.
  const launch = JSON.stringify({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  writeFileSync(join(dir, 'forensics.config.ts'), `import config from './playwright.config.ts'\n\nexport default { ...config, use: { ...config.use, launchOptions: ${launch} } }\n`)
  return dir
}

/** `npx playwright test` in the project: it must fail (the example's test does), leaving both reports. */
async function runPlaywright(dir: string): Promise<void> {
  const env = cleanEnv({ PATH: `${join(dir, 'node_modules/.bin')}:${process.env.PATH ?? ''}`, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', FORCE_COLOR: '0' })
  const child = spawn(process.execPath, [PLAYWRIGHT, 'test', '-c', 'forensics.config.ts'], { cwd: dir, env, stdio: 'pipe' })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const [code] = (await once(child, 'exit')) as [number | null]
  expect(code, output).toBe(1)
  expect(output).toContain('Expected: 12.5')
  expect(output).toContain('Received: 1250')
  expect(existsSync(join(dir, 'playwright-report/index.html')), output).toBe(true)
}

function saveShot(page: Page, name: string): Promise<Buffer> {
  return page.screenshot({ path: join(OUT, name) })
}

/** Playwright's HTML report, on the failed test, its error and the `mock-world` attachment open. */
async function photographReport(browser: Browser, dir: string): Promise<void> {
  const report = await serveFolder(join(dir, 'playwright-report'))
  const page = await browser.newPage({ viewport: VIEWPORT })
  try {
    await page.goto(report.url)
    await page.getByRole('link', { name: 'a price saved in the back office is the price shown' }).first().click()
    await page.getByText('Received: 1250').waitFor()
    // The steps (Playwright's own) folded, so the error and the attachment share the screen.
    await page.getByText('Test Steps', { exact: true }).click()
    const attachment = page.getByText('mock-world', { exact: true })
    await attachment.click()
    await page.getByText('"package": "multi-area-mock"').waitFor()
    // From the top: the test's title, its error, and the start of the bundle.
    await page.evaluate(() => window.scrollTo(0, 0))
    await saveShot(page, SHOTS.report)
  } finally {
    await page.close()
    await report.close()
  }
}

/** The inspector of the replayed world on its time line: command 3 chosen, the Products tab open. */
async function photographTimeline(browser: Browser, url: string): Promise<void> {
  const page = await browser.newPage({ viewport: VIEWPORT })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  try {
    await page.goto(`${url}/__mock/ui`)
    const timeline = page.getByRole('region', { name: 'Time line' })
    await timeline.getByText('4 commands kept').waitFor()
    await timeline.getByRole('button', { name: /^#3 PUT/ }).click()
    await expect.poll(() => page.getByTestId('rewind-shown').getAttribute('data-command')).toBe('3')
    await page.getByRole('tab', { name: 'Products' }).click()
    const row = page.getByRole('table', { name: 'Products' }).getByRole('row', { name: /prod-1001/ })
    expect(await row.locator('td').nth(1).innerText()).toBe('12.5')
    const changes = timeline.getByRole('list', { name: 'core · products' })
    expect(await changes.textContent()).toBe('Changed prod-1001: price 12.5 → 1250')
    await saveShot(page, SHOTS.timeline)
    expect(errors).toEqual([])
  } finally {
    await page.close()
  }
}

/** Width and height of a PNG file, from its header. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file)
  expect(bytes.subarray(1, 4).toString('latin1'), file).toBe('PNG')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

describe(`${DOCUMENT}: the worked example, and its screenshots`, () => {
  const blocks = blocksOf(ROOT, [DOCUMENT]).filter((block) => block.skip?.includes(MARK))
  const servers: Server[] = []
  let browser: Browser | undefined
  let project: string | undefined
  afterAll(async () => {
    await Promise.all(servers.map(stop))
    await browser?.close()
    if (project && !process.env.DOC_TEST_KEEP) rmSync(project, { recursive: true, force: true })
  })

  it('has the blocks of the story: the Playwright project and run, the attachment, two replays with their checks', () => {
    const kinds = blocks.map((block) => (block.lang === 'text' ? 'output' : block.lang === 'ts' ? 'file' : SERVE.test(block.code) ? 'serve' : 'script'))
    expect(kinds).toEqual(['file', 'file', 'script', 'script', 'output', 'serve', 'output', 'script', 'output', 'script', 'output', 'serve', 'output', 'script', 'output'])
  })

  it('runs as written, prints what it shows, and takes the screenshots', { timeout: 240_000 }, async () => {
    mkdirSync(OUT, { recursive: true })
    project = makeProject()
    const dir = project
    const env = cleanEnv({ PATH: `${curlWrapper(join(dir, '.bin'))}:${join(dir, 'node_modules/.bin')}:${process.env.PATH ?? ''}` })
    const ports = new Map<string, string>([['4000', await freePort()]])
    browser = await launchChromium()
    let last: { block: DocBlock; stdout: string } | undefined
    for (const block of blocks) {
      if (block.lang === 'ts') {
        const [first = '', ...rest] = block.code.split('\n')
        const path = /^\/\/ (\S+)$/.exec(first)?.[1]
        expect(path, `${block.where}: a file starts with // <path>`).toBeDefined()
        mkdirSync(dirname(join(dir, path!)), { recursive: true })
        writeFileSync(join(dir, path!), `${[first, ...rest].join('\n').replace(/\b4000\b/g, ports.get('4000')!)}\n`)
        continue
      }
      if (block.lang === 'text') {
        expect(last, `${block.where}: output of no block`).toBeDefined()
        if (last!.block.code.match(SERVE)) expect(steady(last!.stdout).split('\n'), block.where).toContain(steady(block.code))
        else expect(last!.stdout, `${block.where}: the output of ${last!.block.where}`).toBe(`${block.code}\n`)
        continue
      }
      if (block.code.trim() === 'npx playwright test') {
        await runPlaywright(dir)
        await photographReport(browser, dir)
        last = undefined
        continue
      }
      if (SERVE.test(block.code)) {
        const server = await serve(block.code, dir)
        for (const other of servers) if (other.docPort === server.docPort) await stop(other)
        servers.push(server)
        ports.set(server.docPort, server.port)
        last = { block, stdout: server.stdout() }
        continue
      }
      const result = await runShell(mapPorts(block.code, ports), dir, env)
      expectBlockRan(result, block.code, { where: block.where })
      last = { block, stdout: result.stdout }
      // Where the doc shows it: the replayed world, once the history has been read (the login is command 4).
      if (block.code.includes('/__mock/history/3')) await photographTimeline(browser, `http://127.0.0.1:${ports.get('4000')}`)
    }
    if (process.env.UPDATE_DOC_IMAGES) for (const name of Object.values(SHOTS)) copyFileSync(join(OUT, name), join(IMAGES, name))
  })

  it('the doc shows both screenshots, at 1280×800', () => {
    const markdown = readFileSync(join(ROOT, DOCUMENT), 'utf8')
    for (const name of Object.values(SHOTS)) {
      expect(markdown).toContain(`](images/${name})`)
      expect(pngSize(join(IMAGES, name))).toEqual(VIEWPORT)
    }
  })
})
