/**
 * What the inspector (`/__mock/ui`) says of the server it runs on, in Debian's
 * Chromium against the real CLI (`npm run build` first): where the world is
 * kept on a replica (`--store`) and on a replayed bundle (`--replay`), only
 * options that server accepts suggested, counts in proper English, and the
 * world's bundle downloaded with the control token in a header, never a URL,
 * as a file `serve --replay` takes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from './support/chromium.js'
import { type CliServer, startCli } from './support/cli-server.js'
import { type RedisServer, startRedis } from './support/redis-server.js'

const CLOCK = ['--seed', '1', '--clock', '2026-01-01T00:00:00Z', '--quiet']

const post = (url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

const user = (name: string) => ({ username: name, email: `${name}@example.com`, password: 'Passw0rd!' })

/** The page's header bar (world, reset, where the world is kept, the feed). */
const header = (page: Page) => page.getByRole('banner')
/** The "Scenario and state" panel, with its note on where the world is kept. */
const worldPanel = (page: Page) => page.getByRole('region', { name: 'Scenario and state' })
const timeline = (page: Page) => page.getByRole('region', { name: 'Time line' })

async function open(browser: Browser, url: string, errors: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true })
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
  await page.goto(`${url}/__mock/ui`)
  return page
}

let browser: Browser
let dir: string

beforeAll(async () => {
  browser = await launchChromium()
  dir = mkdtempSync(join(tmpdir(), 'mam-inspector-wording-'))
})

afterAll(async () => {
  await browser?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('the inspector on a replica (serve --store)', () => {
  let redis: RedisServer
  let server: CliServer
  let page: Page
  const errors: string[] = []

  beforeAll(async () => {
    redis = await startRedis()
    server = await startCli(['--store', redis.url, ...CLOCK], 30_000)
    page = await open(browser, server.url, errors)
  })

  afterAll(async () => {
    await page?.close()
    await server?.stop()
    await redis?.cleanup()
  })

  it('says the world is shared through Redis, not "In memory", and suggests no --state-file', async () => {
    await page.getByRole('table', { name: 'Users' }).waitFor()
    await header(page).getByText('Shared through Redis (replica)', { exact: true }).waitFor()
    expect(await header(page).getByText('In memory').count()).toBe(0)
    expect(await worldPanel(page).innerText()).toContain(`Every replica shares this world through Redis (${redis.url})`)
    // --store refuses --state-file: nothing on the page may suggest it.
    expect(await page.locator('body').innerText()).not.toContain('--state-file')
  })

  it('says the same of an isolated world: the store keeps every world', async () => {
    expect((await post(`${server.url}/__mock/worlds`, { id: 'lab' })).status).toBe(201)
    const world = page.getByRole('combobox', { name: 'World' })
    await expect.poll(async () => (await world.locator('option').allInnerTexts()).includes('lab'), { timeout: 5_000 }).toBe(true)
    await world.selectOption('lab')
    await worldPanel(page)
      .getByText(/Every replica shares this isolated world through Redis/)
      .waitFor()
    expect(await header(page).getByText('Shared through Redis (replica)', { exact: true }).count()).toBe(1)
    expect(await page.locator('body').innerText()).not.toContain('--state-file')
    expect(errors).toEqual([])
  })
})

describe('the inspector on a replayed bundle (serve --replay)', () => {
  let server: CliServer
  let page: Page
  let file: string
  const errors: string[] = []

  beforeAll(async () => {
    // A bundle of a world that received one command.
    const taken = await startCli(CLOCK)
    try {
      expect((await post(`${taken.url}/admin/api/v1.2/users`, user('replayed.ada'))).status).toBe(201)
      file = join(dir, 'mock-world.json')
      writeFileSync(file, await (await fetch(`${taken.url}/__mock/bundle`)).text())
    } finally {
      await taken.stop()
    }
    server = await startCli(['--replay', file, '--quiet'])
    page = await open(browser, server.url, errors)
  })

  afterAll(async () => {
    await page?.close()
    await server?.stop()
  })

  it('says the world was replayed from the bundle file, not "In memory", and suggests no --state-file', async () => {
    await page.getByRole('table', { name: 'Users' }).waitFor()
    const label = header(page).getByText('Replayed from mock-world.json', { exact: true })
    await label.waitFor()
    expect(await label.getAttribute('title')).toBe(file)
    expect(await header(page).getByText('In memory').count()).toBe(0)
    expect(await worldPanel(page).innerText()).toContain('Rebuilt from mock-world.json (1 command)')
    // --replay refuses --state-file and --store.
    const text = await page.locator('body').innerText()
    expect(text).not.toContain('--state-file')
    expect(text).not.toContain('--store')
  })

  it('counts one command in the singular and three in the plural', async () => {
    await timeline(page).getByText('1 command kept', { exact: true }).waitFor()
    await timeline(page).getByText('Live: the world after the 1 command.', { exact: true }).waitFor()
    expect(await page.locator('body').innerText()).not.toMatch(/\b1 commands\b|all 1 command/)
    expect((await post(`${server.url}/admin/api/v1.2/users`, user('replayed.grace'))).status).toBe(201)
    expect((await post(`${server.url}/admin/api/v1.2/users`, user('replayed.alan'))).status).toBe(201)
    await timeline(page).getByText('3 commands kept', { exact: true }).waitFor()
    await timeline(page).getByText('Live: the world after all 3 commands.', { exact: true }).waitFor()
    expect(errors).toEqual([])
  })
})

describe("the inspector's Download bundle, with a control token", () => {
  const TOKEN = 'wording-t0ken-51c7'
  const auth = { authorization: `Bearer ${TOKEN}` }
  let server: CliServer
  let page: Page
  const urls: string[] = []
  const errors: string[] = []

  beforeAll(async () => {
    server = await startCli(CLOCK, 15_000, { MULTI_AREA_MOCK_CONTROL_TOKEN: TOKEN })
    expect((await post(`${server.url}/admin/api/v1.2/users`, user('bundled.ada'))).status).toBe(201)
    page = await open(browser, server.url, errors)
    page.on('request', (request) => urls.push(request.url()))
    await page.getByLabel('Control token').fill(TOKEN)
    await page.getByRole('button', { name: 'Use token' }).click()
    await page.getByRole('table', { name: 'Users' }).waitFor()
    // Chromium logs the 401 of the page's first call, made before it had the token (which is how it knows to ask).
    errors.length = 0
  })

  afterAll(async () => {
    await page?.close()
    await server?.stop()
  })

  it('on a server in memory, says "In memory" and suggests --state-file, which it accepts', async () => {
    await header(page).getByText('In memory', { exact: true }).waitFor()
    expect(await worldPanel(page).innerText()).toContain('start the server with --state-file to keep it')
  })

  it('saves the default world as mock-world-default.json, a bundle serve --replay rebuilds byte for byte', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), worldPanel(page).getByRole('button', { name: 'Download bundle' }).click()])
    expect(download.suggestedFilename()).toBe('mock-world-default.json')
    const saved = join(dir, 'downloaded.json')
    await download.saveAs(saved)
    const bundle = JSON.parse(readFileSync(saved, 'utf8'))
    expect(bundle.world).toBeNull()
    expect(bundle.commands.map((command: { method: string; url: string }) => `${command.method} ${new URL(command.url).pathname}`)).toEqual(['POST /admin/api/v1.2/users'])

    const state = await (await fetch(`${server.url}/__mock/state`, { headers: auth })).text()
    const replay = await startCli(['--replay', saved, '--quiet'])
    try {
      expect(await (await fetch(`${replay.url}/__mock/state`)).text()).toBe(state)
    } finally {
      await replay.stop()
    }
  })

  it("saves an isolated world's bundle as mock-world-<world>.json", async () => {
    expect((await post(`${server.url}/__mock/worlds`, { id: 'lab', scenario: 'empty' }, auth)).status).toBe(201)
    const world = page.getByRole('combobox', { name: 'World' })
    await expect.poll(async () => (await world.locator('option').allInnerTexts()).includes('lab'), { timeout: 5_000 }).toBe(true)
    await world.selectOption('lab')
    await expect.poll(() => page.getByRole('table', { name: 'Users' }).locator('tbody tr').count()).toBe(0)
    const [download] = await Promise.all([page.waitForEvent('download'), worldPanel(page).getByRole('button', { name: 'Download bundle' }).click()])
    expect(download.suggestedFilename()).toBe('mock-world-lab.json')
    const saved = join(dir, 'lab.json')
    await download.saveAs(saved)
    expect(JSON.parse(readFileSync(saved, 'utf8')).world).toBe('lab')
  })

  it('sent the token in a header only: no URL the page asked for holds it', () => {
    expect(urls.some((url) => url.endsWith('/__mock/bundle'))).toBe(true)
    expect(urls.filter((url) => url.includes(TOKEN) || /[?&]token=/.test(url))).toEqual([])
    expect(server.stdout()).not.toContain(TOKEN)
    expect(errors).toEqual([])
  })
})
