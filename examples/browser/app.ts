/**
 * The example page: starts the simulator in the service worker with options
 * from the query string, then runs the flows through plain `fetch` and shows
 * what came back. `?seed=1&scenario=default&persist=session&clock=...&quiet=1`;
 * `scenario` may be a URL such as `/scenarios/team.json`, `persist` may be `off`.
 */
import { type BrowserSimulator, type PersistMode, startBrowserSimulator } from 'multi-area-mock/browser'
import { type Api, type Flow, flows } from './flows.js'

const query = new URLSearchParams(location.search)
const persistParam = query.get('persist') ?? 'session'
const options = {
  ...(query.has('seed') ? { seed: Number(query.get('seed')) } : {}),
  scenario: query.get('scenario') ?? 'default',
  clock: query.get('clock') ?? '2026-01-01T00:00:00Z',
  persist: (persistParam === 'off' ? false : persistParam) as PersistMode,
  quiet: query.get('quiet') === '1',
}

/** A `fetch` helper that notes each request (`POST /admin/... → 201`) in `log`, shown under the flow. */
function createApi(log: string[] = []): Api {
  return async (method, path, { json, headers, expect } = {}) => {
    const response = await fetch(path, {
      method,
      headers: { ...(json === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: json === undefined ? null : JSON.stringify(json),
    })
    const text = await response.text()
    const body = (response.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text
    log.push(`${method} ${path} → ${response.status}`)
    if (expect === undefined ? !response.ok : response.status !== expect) {
      throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`)
    }
    return { status: response.status, headers: response.headers, body }
  }
}

function element<T extends HTMLElement>(selector: string): T {
  const found = document.querySelector<T>(selector)
  if (!found) throw new Error(`The page has no ${selector}.`)
  return found
}

function renderStatus(running: BrowserSimulator): void {
  const sim = running.simulator
  const rows: Array<[string, string]> = [
    ['worker', navigator.serviceWorker.controller ? `active (${new URL(navigator.serviceWorker.controller.scriptURL).pathname})` : 'not controlling this page'],
    ['scenario', sim.scenario],
    ['seed', String(sim.seed)],
    ['clock', `${sim.now()}${sim.clockFixed ? ' (fixed)' : ''}`],
    ['persist', options.persist ? `${options.persist}Storage` : 'off'],
    ['world', running.restored ? 'restored from storage' : 'seeded from the scenario'],
    ['areas', sim.areas.map((area) => `${area.letter} ${area.baseUrls.join(' ')}`).join(' · ')],
  ]
  element('#status').replaceChildren(
    ...rows.flatMap(([key, value]) => {
      const dt = document.createElement('dt')
      dt.textContent = key
      const dd = document.createElement('dd')
      dd.dataset.key = key
      dd.textContent = value
      return [dt, dd]
    }),
  )
}

async function renderPending(): Promise<void> {
  const reply = await createApi()('GET', '/admin/api/v1.2/users?status=pending&limit=100')
  element('#pending h2').textContent = `Pending users (Area A): ${reply.headers.get('x-total-count')}`
  element('#pending pre').textContent = JSON.stringify(
    reply.body.map((user: { username: string }) => user.username),
    null,
    1,
  )
}

function flowSection(flow: Flow): HTMLElement {
  const existing = document.querySelector<HTMLElement>(`section[data-flow="${flow.id}"]`)
  if (existing) return existing
  const section = document.createElement('section')
  section.dataset.flow = flow.id
  section.innerHTML = '<h2></h2><span class="badge">waiting</span><ul class="requests"></ul><pre data-result>not run yet</pre>'
  section.querySelector('h2')!.textContent = flow.title
  element('#flows').append(section)
  return section
}

async function runFlows(): Promise<void> {
  document.body.dataset.flows = 'running'
  for (const flow of flows) {
    const section = flowSection(flow)
    section.dataset.status = 'running'
    const requestLog: string[] = []
    try {
      const result = await flow.run(createApi(requestLog))
      section.dataset.status = 'ok'
      section.querySelector('pre')!.textContent = JSON.stringify(result, null, 1)
    } catch (error) {
      section.dataset.status = 'failed'
      section.querySelector('pre')!.textContent = error instanceof Error ? error.message : String(error)
    }
    section.querySelector('.badge')!.textContent = section.dataset.status
    section.querySelector('ul')!.replaceChildren(
      ...requestLog.map((line) => {
        const item = document.createElement('li')
        item.textContent = line
        return item
      }),
    )
  }
  await renderPending()
  document.body.dataset.flows = 'done'
}

async function main(): Promise<void> {
  const running = await startBrowserSimulator(options)
  renderStatus(running)
  await renderPending()
  for (const flow of flows) flowSection(flow)
  const run = element<HTMLButtonElement>('#run')
  const reset = element<HTMLButtonElement>('#reset')
  run.onclick = () => void runFlows()
  reset.onclick = async () => {
    await createApi()('POST', '/__mock/reset')
    await renderPending()
  }
  run.disabled = reset.disabled = false
  document.body.dataset.ready = 'true'
}

main().catch((error: unknown) => {
  // Shown on the page (and read by the test), not thrown: the page stays usable for a look.
  element('#status').textContent = `Could not start: ${error instanceof Error ? error.message : String(error)}`
  document.body.dataset.ready = 'failed'
})
