// The example app: a small node:http server that renders its page from data it
// fetches from the API on the server side, then lets the browser fetch more.
// In the end-to-end suite the API is the simulator server (API_URL), and
// propagateMockWorld carries each test's world from the browser's request to the
// server's fetches.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { propagateMockWorld } from 'multi-area-mock/node'
import { type Directory, type Person, renderPage } from './page.js'

const API_URL = required('API_URL')
const PORT = Number(required('PORT'))

// Only under test (the suite sets MULTI_AREA_MOCK_URL); in production the middleware is not there at all.
const propagate = process.env.MULTI_AREA_MOCK_URL ? propagateMockWorld({ mockServerUrl: API_URL }) : <T>(_req: IncomingMessage, _res: ServerResponse, next: () => T) => next()

const server = createServer((req, res) => {
  propagate(req, res, () => handle(req, res)).catch((error: unknown) => {
    console.error(error)
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
    res.end('Something went wrong.')
  })
})
server.listen(PORT, '127.0.0.1', () => console.log(`example app on http://127.0.0.1:${PORT} (API ${API_URL})`))

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://app.local')
  if (req.method === 'GET' && url.pathname === '/health') return send(res, 200, 'text/plain', 'ok')
  if (req.method === 'GET' && url.pathname === '/') {
    const directory = await loadDirectory()
    return send(res, 'error' in directory ? 503 : 200, 'text/html; charset=utf-8', renderPage({ apiUrl: API_URL, directory }))
  }
  if (req.method === 'POST' && url.pathname === '/people') {
    const form = new URLSearchParams(await readBody(req))
    const created = await fetch(`${API_URL}/admin/api/v1.2/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: form.get('username'), email: form.get('email'), password: form.get('password') }),
    })
    if (created.status === 201) {
      res.writeHead(303, { location: '/' })
      return void res.end()
    }
    const problem = (await created.json()) as { message?: string }
    const page = renderPage({ apiUrl: API_URL, directory: await loadDirectory(), formError: `Could not add the person: ${problem.message ?? created.status}` })
    return send(res, created.status >= 500 ? 502 : 422, 'text/html; charset=utf-8', page)
  }
  send(res, 404, 'text/plain', 'Not found.')
}

/** The first 100 people and how many there are, fetched on the server. */
async function loadDirectory(): Promise<Directory> {
  const response = await fetch(`${API_URL}/admin/api/v1.2/users?limit=100`).catch(() => undefined)
  if (!response?.ok) {
    const reason = response ? `${response.status} (${((await response.json().catch(() => ({}))) as { error?: string }).error ?? 'no details'})` : 'no answer'
    return { error: `The directory is unavailable: the admin API answered ${reason}.` }
  }
  return { people: (await response.json()) as Person[], total: Number(response.headers.get('x-total-count')) }
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type })
  res.end(body)
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = ''
  for await (const chunk of req) body += chunk
  return body
}

function required(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`The example app needs ${name}.`)
  return value
}
