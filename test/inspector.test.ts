/**
 * The inspector page (`/__mock/ui`) in Debian's Chromium, against the real CLI
 * server (`npm run build` first: the page is served from dist/inspector/).
 * Everything is found by role and name, as a person (or a screen reader)
 * finds it; what the page does is checked through the API.
 */
import { copyFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from './support/chromium.js'
import { type CliServer, startCli } from './support/cli-server.js'

const OUT = join(process.cwd(), 'test-output', 'inspector')

const json = (method: string, body?: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
})

describe('the inspector in Chromium', () => {
  let browser: Browser
  let server: CliServer
  let page: Page
  /** Every URL the page asked for, and anything it tried to load from elsewhere. */
  const asked: string[] = []
  const outside: string[] = []
  const errors: string[] = []

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true })
    server = await startCli(['--seed', '1', '--clock', '2026-01-01T00:00:00Z', '--quiet'])
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page.route('**/*', (route) => {
      const url = route.request().url()
      asked.push(url)
      if (url.startsWith(`${server.url}/`) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue()
      outside.push(url)
      return route.abort()
    })
    // The API's refusals the tests ask for on purpose (a bad price, a bad rule) are shown in the page; Chromium also logs each.
    page.on('console', (message) => message.type() === 'error' && !/^Failed to load resource: .* status of 400/.test(message.text()) && errors.push(message.text()))
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`${server.url}/__mock/ui`)
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  const usersTable = () => page.getByRole('table', { name: 'Users' })

  it('is titled, lists the seeded users, and loads nothing from outside the server', async () => {
    expect(await page.title()).toBe('multi-area-mock inspector')
    await usersTable().waitFor()
    const first = await (await fetch(`${server.url}/admin/api/v1.2/users?limit=100`)).json()
    const seeded = first.map((user: { username: string }) => user.username)
    expect(seeded.length).toBeGreaterThan(20)
    const shown = await usersTable().locator('tbody th').allInnerTexts()
    // Newest first, 20 a page.
    expect(shown).toEqual([...seeded].reverse().slice(0, 20))
    await expect.poll(() => page.getByText(`Page 1 of ${Math.ceil(seeded.length / 20)} (${seeded.length} rows)`).count()).toBe(1)
    expect(outside).toEqual([])
  })

  it('shows a user created through the API in the table and the journal within a second, its password redacted', async () => {
    const started = performance.now()
    const created = await fetch(`${server.url}/admin/api/v1.2/users`, json('POST', { username: 'ada.lovelace', email: 'ada@example.com', password: 'Analytical-Engine-1843' }))
    expect(created.status).toBe(201)
    const journal = page.getByRole('region', { name: 'Request journal' })
    const row = journal.getByRole('button', { name: 'POST /admin/api/v1.2/users' })
    await Promise.all([usersTable().getByRole('rowheader', { name: 'ada.lovelace' }).waitFor({ timeout: 1_000 }), row.waitFor({ timeout: 1_000 })])
    console.info(`[inspector] a created user showed in the table and the journal ${(performance.now() - started).toFixed(0)} ms after the request was sent`)
    await row.click()
    const detail = journal.getByRole('region', { name: /^Request \d+$/ })
    const body = await detail.getByLabel('Request body').innerText()
    expect(JSON.parse(body)).toEqual({ username: 'ada.lovelace', email: 'ada@example.com', password: '[redacted]' })
    expect(await page.content()).not.toContain('Analytical-Engine-1843')
    await detail.getByRole('button', { name: 'Close request detail' }).click()
  })

  it('approves a pending user through Area A', async () => {
    await usersTable().getByRole('button', { name: 'Approve ada.lovelace' }).click()
    await usersTable().getByRole('button', { name: 'Deactivate ada.lovelace' }).waitFor()
    const users = await (await fetch(`${server.url}/admin/api/v1.2/users?status=active&limit=100`)).json()
    expect(users.map((user: { username: string }) => user.username)).toContain('ada.lovelace')
  })

  it("edits a price in place through Area B, and shows Area B's own error for a bad one", async () => {
    await page.getByRole('tab', { name: 'Users' }).focus()
    // Keyboard: the arrow key moves to the next tab and shows its panel.
    await page.keyboard.press('ArrowRight')
    const products = page.getByRole('table', { name: 'Products' })
    await products.waitFor()
    const price = products.getByRole('textbox', { name: 'Price of Aurora Mechanical Keyboard' })
    await price.fill('79.5')
    await price.press('Enter')
    await expect.poll(async () => (await (await fetch(`${server.url}/core/products/prod-1001`)).json()).price).toBe(79.5)
    await price.fill('10.555')
    await products.getByRole('button', { name: 'Save Aurora Mechanical Keyboard' }).click()
    await expect.poll(() => page.getByRole('alert').first().innerText()).toMatch(/price/)
    expect((await (await fetch(`${server.url}/core/products/prod-1001`)).json()).price).toBe(79.5)
  })

  it('shows the particle pairs, resources, notifications and the chain in tables', async () => {
    await page.getByRole('tab', { name: 'Particle pairs' }).click()
    expect(await page.getByRole('table', { name: 'Particle pairs' }).locator('tbody tr').count()).toBeGreaterThan(0)
    await page.getByRole('tab', { name: 'Resources & notifications' }).click()
    await page.getByRole('table', { name: 'Resources' }).waitFor()
    await page.getByRole('table', { name: 'Notifications' }).waitFor()
    await page.getByRole('tab', { name: 'Chain' }).click()
    await page.getByRole('table', { name: 'Delegations' }).waitFor()
    const status = await (await fetch(`${server.url}/ledger/v1/status`)).json()
    expect(await page.getByTestId('chain-height').innerText()).toBe(String(status.network_height))
    await page.getByText(status.last_block_hash).waitFor()
  })

  it('advancing the clock by 1h in the page moves the ledger 600 blocks on, as the API reads it', async () => {
    const before = (await (await fetch(`${server.url}/ledger/v1/status`)).json()).network_height
    await page.getByRole('textbox', { name: 'Advance by' }).fill('1h')
    await page.getByRole('button', { name: 'Advance clock' }).click()
    await page.getByText('Advanced by 1h.').waitFor()
    const after = (await (await fetch(`${server.url}/ledger/v1/status`)).json()).network_height
    expect(after - before).toBe(600)
    await expect.poll(() => page.getByTestId('chain-height').innerText()).toBe(String(after))
  })

  it('a fault rule added in the page makes the next matching request fail as the rule says', async () => {
    await page.getByRole('textbox', { name: 'Fault rule' }).fill('POST /core/users 503 times=1')
    await page.getByRole('button', { name: 'Add rule' }).click()
    await page.getByRole('button', { name: 'Remove rule 1: POST /core/users 503 times=1' }).waitFor()
    const body = { username: 'grace.hopper', email: 'grace@example.com', password: 'Passw0rd!' }
    const failed = await fetch(`${server.url}/core/users`, json('POST', body))
    expect(failed.status).toBe(503)
    expect(failed.headers.get('retry-after')).toBe('1')
    expect((await fetch(`${server.url}/core/users`, json('POST', body))).status).toBe(201)
    // Words the API refuses: its own message, and nothing added.
    await page.getByRole('textbox', { name: 'Fault rule' }).fill('POST /core/users 302')
    await page.getByRole('button', { name: 'Add rule' }).click()
    await expect.poll(() => page.getByRole('alert').first().innerText()).toMatch(/status/)
    expect((await (await fetch(`${server.url}/__mock/faults`)).json()).rules).toHaveLength(1)
    await page.getByRole('button', { name: /^Remove rule 1/ }).click()
    await expect.poll(async () => (await (await fetch(`${server.url}/__mock/faults`)).json()).rules).toEqual([])
  })

  it('switching to an isolated world shows only that world\'s data; "Reset world" resets the world chosen', async () => {
    expect((await fetch(`${server.url}/__mock/worlds`, json('POST', { id: 'lab', scenario: 'empty' }))).status).toBe(201)
    expect(
      (await fetch(`${server.url}/admin/api/v1.2/users`, json('POST', { username: 'only.in.lab', email: 'lab@example.com', password: 'Passw0rd!' }, { 'x-mock-world': 'lab' })))
        .status,
    ).toBe(201)
    await page.getByRole('tab', { name: 'Users' }).click()
    const world = page.getByRole('combobox', { name: 'World' })
    await expect.poll(async () => (await world.locator('option').allInnerTexts()).includes('lab'), { timeout: 5_000 }).toBe(true)
    await world.selectOption('lab')
    await usersTable().getByRole('rowheader', { name: 'only.in.lab' }).waitFor()
    expect(await usersTable().locator('tbody th').allInnerTexts()).toEqual(['only.in.lab'])
    const journal = page.getByRole('region', { name: 'Request journal' })
    await journal.getByRole('button', { name: 'POST /admin/api/v1.2/users' }).waitFor()
    expect(await journal.getByRole('button', { name: /^(GET|POST|PUT|DELETE) / }).count()).toBe(1)

    await page.getByRole('button', { name: 'Reset world' }).click()
    await expect.poll(() => usersTable().locator('tbody tr').count()).toBe(0)
    expect((await (await fetch(`${server.url}/__mock/state`, { headers: { 'x-mock-world': 'lab' } })).json()).accounts.users).toEqual([])
    // The default world was not touched.
    const defaults = await (await fetch(`${server.url}/__mock/state`)).json()
    expect(defaults.accounts.users.map((user: { username: string }) => user.username)).toContain('ada.lovelace')
    await world.selectOption('default')
    await usersTable().getByRole('rowheader', { name: 'ada.lovelace' }).waitFor()
  })

  it('is readable at 1280×800 and at 390×844 (screenshots in test-output/inspector/)', async () => {
    await page.getByRole('region', { name: 'Request journal' }).getByRole('button', { name: 'POST /admin/api/v1.2/users' }).first().click()
    await page.screenshot({ path: join(OUT, 'inspector-1280x800.png') })
    // How docs/images/inspector.png (the README's and docs/inspector.md's picture) is made.
    if (process.env.UPDATE_DOC_IMAGES) copyFileSync(join(OUT, 'inspector-1280x800.png'), join(process.cwd(), 'docs', 'images', 'inspector.png'))
    const wide = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(wide).toBeLessThanOrEqual(1280)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.screenshot({ path: join(OUT, 'inspector-390x844.png') })
    // Nothing wider than the phone: tables scroll inside their own box.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await page.setViewportSize({ width: 1280, height: 800 })
    expect(errors).toEqual([])
    expect(outside).toEqual([])
  })
})

describe('the inspector with a control token', () => {
  const TOKEN = 'inspector-t0ken-9f2c'
  let browser: Browser
  let server: CliServer

  beforeAll(async () => {
    server = await startCli(['--seed', '1'], 15_000, { MULTI_AREA_MOCK_CONTROL_TOKEN: TOKEN })
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('asks for the token and shows no data until it is given; the token is never in a URL or the log', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const urls: string[] = []
    page.on('request', (request) => urls.push(request.url()))
    await page.goto(`${server.url}/__mock/ui`)
    const token = page.getByLabel('Control token')
    await token.waitFor()
    expect(await page.getByRole('table').count()).toBe(0)
    expect(await page.getByRole('region', { name: 'Request journal' }).count()).toBe(0)

    await token.fill('wrong-token')
    await page.getByRole('button', { name: 'Use token' }).click()
    await page.getByRole('alert').getByText('The server refused this token.').waitFor()
    expect(await page.getByRole('table').count()).toBe(0)

    await page.getByLabel('Control token').fill(TOKEN)
    await page.getByRole('button', { name: 'Use token' }).click()
    await page.getByRole('table', { name: 'Users' }).waitFor()
    await page.getByRole('status').getByText('Live').waitFor()
    // Kept for the tab: a reload asks no more.
    await page.reload()
    await page.getByRole('table', { name: 'Users' }).waitFor()
    await page.screenshot({ path: join(OUT, 'inspector-token-given.png') })

    await fetch(`${server.url}/core/products/prod-1001`)
    await page.getByRole('region', { name: 'Request journal' }).getByRole('button', { name: 'GET /core/products/prod-1001' }).waitFor()
    expect(urls.filter((url) => url.includes(TOKEN))).toEqual([])
    await page.close()
    expect(server.stdout()).not.toContain(TOKEN)
    expect(server.stdout()).toMatch(/GET \/__mock\/events 200/)
  })
})
