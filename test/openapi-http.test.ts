/**
 * The OpenAPI document as users meet it, against the real CLI server: printed by
 * `multi-area-mock openapi`, served at /__mock/openapi.json, turned into a typed
 * client with openapi-typescript + openapi-fetch, and rendered at /__mock/docs in
 * Chromium with no request leaving the machine.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, runCli, startCli } from './support/cli-server.js'
import { launchChromium } from './support/chromium.js'
import { call } from './support/http.js'

const CLIENT_DIR = fileURLToPath(new URL('./openapi-client/', import.meta.url))
const OUTPUT_DIR = fileURLToPath(new URL('../test-output/', import.meta.url))
const resolveBin = (pkg: string, bin: string) => `${dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`))}/${bin}`

function run(file: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file, ...args], { stdio: 'pipe' })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.once('exit', (code) => resolve({ code, output }))
  })
}

let server: CliServer
let served: any
beforeAll(async () => {
  server = await startCli(['--seed', '1', '--clock', '2026-01-01T00:00:00Z', '--quiet', '--root', 'core'])
  served = (await call(`${server.url}/__mock/openapi.json`)).body
})
afterAll(async () => {
  await server?.stop()
})

describe('multi-area-mock openapi', () => {
  it('prints the document the server serves, for the same mounts and origin', async () => {
    const printed = await runCli(['openapi', '--root', 'core', '--server', server.url])
    expect(printed.stderr).toBe('')
    expect(printed.code).toBe(0)
    expect(JSON.parse(printed.stdout)).toEqual(served)
    expect(served.servers).toEqual([{ url: server.url, description: 'This simulator' }])
  })

  it('prints one area with its own paths and base URLs (--area)', async () => {
    const printed = await runCli(['openapi', '--area', 'core', '--root', 'core'])
    const doc = JSON.parse(printed.stdout)
    expect(doc.servers).toEqual([{ url: 'http://127.0.0.1:4000/core' }, { url: 'http://127.0.0.1:4000' }])
    expect(Object.keys(doc.paths)).toEqual(['/users', '/products/{id}', '/ingest/data'])
    const here = await runCli(['openapi', '--area', 'B', '--root', 'core', '--server', server.url])
    expect(JSON.parse(here.stdout)).toEqual((await call(`${server.url}/__mock/openapi.json?area=core`)).body)
  })
})

describe('a typed client generated from the served document', () => {
  const TOKEN = 'typed-client-token'
  let guarded: CliServer
  let doc: any
  const operations = () =>
    Object.entries<any>(doc.paths).flatMap(([path, item]) =>
      ['get', 'put', 'post', 'delete', 'patch'].filter((method) => item[method]).map((method) => ({ path, method: method.toUpperCase(), operation: item[method] })),
    )
  let twin: CliServer
  beforeAll(async () => {
    // Area E proxied to a twin (same seed and clock, so the same answers) and recorded, so that saving the recording answers 200 too.
    twin = await startCli(['--seed', '1', '--clock', '2026-01-01T00:00:00Z', '--quiet'])
    const record = join(mkdtempSync(join(tmpdir(), 'typed-client-')), 'recorded.json')
    // A control token, so that the client must send it where the document says.
    guarded = await startCli(['--seed', '1', '--clock', '2026-01-01T00:00:00Z', '--quiet', '--control-token', TOKEN, '--proxy', `ledger=${twin.url}/ledger`, '--record', record])
    doc = await (await fetch(`${guarded.url}/__mock/openapi.json`)).json()
  })
  afterAll(async () => {
    await guarded?.stop()
    await twin?.stop()
  })

  it('type-checks with openapi-typescript types and calls every operation of the document with openapi-fetch', async () => {
    mkdirSync(`${CLIENT_DIR}generated`, { recursive: true })
    const generated = await run(resolveBin('openapi-typescript', 'bin/cli.js'), [`${guarded.url}/__mock/openapi.json`, '-o', `${CLIENT_DIR}generated/api.d.ts`])
    expect(generated.code, generated.output).toBe(0)
    // `calls` is typed by operation id: an operation without a call (or a call of none) fails here.
    const typecheck = await run(resolveBin('typescript', 'bin/tsc'), ['-p', `${CLIENT_DIR}tsconfig.json`])
    expect(typecheck.code, typecheck.output).toBe(0)
    // Imported by URL so the main type-check does not follow it into the generated file.
    const client = await import(/* @vite-ignore */ `${CLIENT_DIR}client.ts`)
    const ids = operations().map(({ operation }) => operation.operationId)
    expect(Object.keys(client.calls).sort()).toEqual([...ids].sort())
    const results = await client.callEveryOperation(guarded.url, TOKEN)
    for (const { operation } of operations()) {
      const result = results[operation.operationId]
      const successes = Object.keys(operation.responses).filter((status) => status.startsWith('2'))
      expect(successes, `${operation.operationId} answered ${result.status}: ${result.summary}`).toContain(String(result.status))
      expect(result.summary, operation.operationId).not.toBe('')
    }
    expect(results.coreGetProduct.summary).toBe('Aurora Mechanical Keyboard 89.99')
    expect(results.generalUpdateResource.summary).toBe('Typed report')
    expect(results.controlStreamEvents.summary).toBe('event: hello')
    expect(results.ledgerGetToken.summary).toBe('USDC with 6 decimals')
    expect(results.controlGetHealth.summary).toBe('ok seed 1')
    expect(results.controlSaveRecording.summary).toMatch(
      /^ledger: 2 records kept \(ledger\.blocks 1, ledger\.tokens 1\); 0 answers not mapped; left out: ledger\.delegations\/0x[0-9a-f]{64}: its validator /,
    )
    // Generating the types and type-checking them take a few seconds each.
  }, 90_000)

  it('asks for the control token exactly where the document declares it, and refuses as its examples show', async () => {
    for (const { path, method, operation } of operations()) {
      const url = `${guarded.url}${path.replace(/\{[^}]+\}/g, 'x')}`
      const schemes = (operation.security as Array<Record<string, string[]>>).flatMap((requirement) => Object.keys(requirement))
      // Without a body: the token is checked before anything of the request.
      const refused = await fetch(url, { method })
      const body = refused.status === 401 ? await refused.json() : await refused.body?.cancel()
      if (schemes.includes('controlToken')) {
        expect(refused.status, `${method} ${path}`).toBe(401)
        const examples = Object.values<any>(doc.components.responses.ControlUnauthorizedOrInvalidToken.content['application/json'].examples)
        expect(examples.map((example) => example.value)).toContainEqual(body)
        const wrong = await fetch(url, { method, headers: { authorization: 'Bearer not-the-token' } })
        expect(examples.map((example) => example.value)).toContainEqual(await wrong.json())
      } else if (schemes.includes('bearerAuth')) {
        expect(body, `${method} ${path}`).toMatchObject({ error: 'unauthorized' })
        expect(refused.headers.get('www-authenticate'), `${method} ${path}`).not.toContain('control API')
      } else {
        expect(refused.status, `${method} ${path}`).not.toBe(401)
      }
    }
  })
})

describe('GET /__mock/docs', () => {
  // swagger-ui-dist is a devDependency here; without it (an optional peer) the page is a plain list: test/package-install.test.ts.
  it('serves Swagger UI and its assets from the installed swagger-ui-dist, under a policy with no inline script, and nothing else under it', async () => {
    const page = await fetch(`${server.url}/__mock/docs`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'self'; /)
    const html = await page.text()
    expect(html).toContain('/__mock/docs/swagger-init.js')
    expect(await (await fetch(`${server.url}/__mock/docs/swagger-init.js`)).text()).toContain('"/__mock/openapi.json"')
    for (const [asset, type] of [
      ['swagger-ui-bundle.js', 'text/javascript'],
      ['swagger-ui.css', 'text/css'],
    ] as const) {
      const response = await fetch(`${server.url}/__mock/docs/${asset}`)
      expect(response.status, asset).toBe(200)
      expect(response.headers.get('content-type'), asset).toContain(type)
      expect((await response.arrayBuffer()).byteLength, asset).toBeGreaterThan(100_000)
    }
    // Only the page's own assets: nothing else of the package or the disk.
    const missing = await fetch(`${server.url}/__mock/docs/package.json`)
    expect(missing.status).toBe(404)
    expect((await missing.json()).error).toBe('not_found')
    expect((await fetch(`${server.url}/__mock/docs`, { method: 'POST' })).status).toBe(405)
  })

  describe('in Chromium', () => {
    let browser: Browser
    beforeAll(async () => {
      browser = await launchChromium()
    })
    afterAll(async () => {
      await browser?.close()
    })

    it('shows every operation of every area, with nothing fetched from outside the server', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 2400 } })
      const outside: string[] = []
      const errors: string[] = []
      await page.route('**/*', (route) => {
        const url = route.request().url()
        if (url.startsWith(`${server.url}/`) || url.startsWith('data:')) return route.continue()
        outside.push(url)
        return route.abort()
      })
      page.on('console', (message) => {
        // A Content-Security-Policy refusal shows here too.
        if (message.type() === 'error') errors.push(message.text())
      })
      await page.goto(`${server.url}/__mock/docs`)
      const expected: string[] = []
      for (const [path, item] of Object.entries<any>(served.paths)) {
        for (const method of ['get', 'put', 'post', 'delete', 'patch']) if (item[method]) expected.push(`${method.toUpperCase()} ${path}`)
      }
      await page
        .locator('.opblock')
        .nth(expected.length - 1)
        .waitFor({ timeout: 15_000 })
      const shown = await page
        .locator('.opblock-summary')
        .evaluateAll((blocks) =>
          blocks.map((block) => `${block.querySelector('.opblock-summary-method')?.textContent} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
        )
      expect(shown.sort()).toEqual(expected.sort())
      const tags = await page.locator('.opblock-tag').allInnerTexts()
      for (const tag of served.tags)
        expect(
          tags.some((text) => text.startsWith(tag.name)),
          tag.name,
        ).toBe(true)
      expect(tags).toHaveLength(served.tags.length)
      mkdirSync(OUTPUT_DIR, { recursive: true })
      writeFileSync(`${OUTPUT_DIR}docs-page.png`, await page.screenshot({ fullPage: false }))
      expect(outside).toEqual([])
      expect(errors).toEqual([])
      await page.close()
    })
  })
})
