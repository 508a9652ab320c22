/**
 * The package's entries as a user's Node resolves them (the built package,
 * `npm run build` first): bundles in dist/src/ (scripts/bundle-entries.js).
 * Run in child processes, as a test file of a user's suite would load them:
 * a few files of ours and msw from the user's own install; and entries that
 * share code share one copy of it, so a class from one entry is the class of
 * another (an `instanceof` check across entries holds).
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const run = promisify(execFile)

async function child(script: string): Promise<unknown> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd() })
  return JSON.parse(stdout.trim().split('\n').at(-1)!)
}

it('loads the package entry as a few bundled files, with msw from the install and no dependency file by file', async () => {
  // A loader hook reports every file the import loads.
  const hooks = `let port; export function initialize(data) { port = data.port }
export async function load(url, context, next) { if (url.startsWith('file:')) port.postMessage(url); return next(url, context) }`
  const loaded = (await child(`import { register } from 'node:module'
import { MessageChannel } from 'node:worker_threads'
const files = []; const { port1, port2 } = new MessageChannel()
port1.on('message', (url) => files.push(url)); port1.unref()
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}), { data: { port: port2 }, transferList: [port2] })
const { createSimulator } = await import('multi-area-mock')
const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z' })
const response = await sim.fetch(new Request('http://localhost/core/users?limit=2'))
await new Promise((resolve) => setTimeout(resolve, 50))
console.log(JSON.stringify({ status: response.status, files }))`)) as { status: number; files: string[] }
  expect(loaded.status).toBe(200)
  const root = new URL(`file://${process.cwd()}/`).href
  const ours = loaded.files.filter((url) => url.startsWith(root) && !url.startsWith(`${root}node_modules/`)).map((url) => url.slice(root.length))
  expect(ours.length).toBeGreaterThan(0)
  expect(ours.filter((file) => !/^dist\/src\/(index|chunks\/chunk-\w+)\.js$/.test(file))).toEqual([])
  expect(ours.length).toBeLessThanOrEqual(6)
  const packages = new Set(loaded.files.map((url) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]).filter(Boolean))
  expect(packages).toContain('msw')
  for (const inlined of ['zod', '@msw/data', 'es-toolkit', '@faker-js/faker', 'jose', '@noble/curves']) expect(packages).not.toContain(inlined)
})

it('shares one copy of what entries have in common: a class from one entry is the class of another', async () => {
  const result = await child(`import { writeFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
const root = await import('multi-area-mock')
const node = await import('multi-area-mock/node')
const playwright = await import('multi-area-mock/playwright')
const file = join(mkdtempSync(join(tmpdir(), 'bundled-entries-')), 'bad.json')
writeFileSync(file, JSON.stringify({ users: 'many' }))
const caught = await node.readScenarioFile(file).catch((error) => error)
const running = await node.startServer({ port: 0, host: '127.0.0.1', scenario: 'empty' })
const response = await fetch(running.url + '/core/users/nope')
await running.close()
console.log(JSON.stringify({
  scenarioError: caught instanceof root.ScenarioError,
  mockWorld: playwright.MockWorld === root.MockWorld,
  serverError: playwright.MockServerError === root.MockServerError,
  status: response.status,
}))`)
  expect(result).toEqual({ scenarioError: true, mockWorld: true, serverError: true, status: 404 })
})
