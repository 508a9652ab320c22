import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { CompactSign, decodeJwt, decodeProtectedHeader } from 'jose'
import { createSimulator } from '../../src/index.js'

/**
 * A deliberately divergent implementation of the interface, for `verify`'s
 * tests: our simulator (in-process) behind a tiny node:http server that
 * changes a few answers, each a departure one check exists to catch.
 * The check each divergence must be reported by is the key.
 */
export const DIVERGENCES: Record<string, string> = {
  'core.create-user': 'POST /core/users answers 200 instead of 201',
  'quantum.status': 'GET /quantum/v1/status drops load_percentage',
  'admin.create-user.password-never-returned': 'a taken username answers 409 echoing the password',
  'admin.list-users.status-filter': 'GET /admin/api/v1.2/users ignores a valid status filter',
  'general.update-resource.expired-token': 'PUT /general/resources/{id} accepts an expired token',
  'ledger.delegate.replay-refused': 'a replayed delegation signature is let through (202)',
  'quantum.measure.partner-opposite': 'a measurement reports both particles with the same result',
}

export interface DivergentServer {
  url: string
  secret: string
  close(): Promise<void>
}

/** Starts the divergent implementation on a free port of 127.0.0.1. */
export async function startDivergentServer(): Promise<DivergentServer> {
  const secret = 'divergent-jwt-secret'
  const sim = createSimulator({ seed: 1, auth: { secret } })
  await sim.ready
  const server: Server = createServer((req, res) => {
    void answer(req).then(
      ({ status, headers, body }) => {
        res.writeHead(status, headers)
        res.end(body)
      },
      () => {
        res.writeHead(500, { 'content-type': 'application/json' })
        res.end('{"error":"internal_error","message":"divergent server failed"}')
      },
    )
  })

  async function answer(req: IncomingMessage): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    const url = new URL(req.url ?? '/', 'http://divergent.test')
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
    const method = req.method ?? 'GET'
    // Ignores a valid status filter: the list is answered unfiltered.
    if (method === 'GET' && url.pathname === '/admin/api/v1.2/users' && ['active', 'inactive', 'pending'].includes(url.searchParams.get('status') ?? ''))
      url.searchParams.delete('status')
    // Accepts an expired token: it is swapped for a fresh one with the same claims.
    if (method === 'PUT' && url.pathname.startsWith('/general/resources/')) {
      const token = /^Bearer (.+)$/.exec(headers.get('authorization') ?? '')?.[1]
      if (token) headers.set('authorization', `Bearer ${await renewIfExpired(token, secret)}`)
    }
    const response = await sim.fetch(new Request(url, { method, headers, ...(text !== '' ? { body: text } : {}) }))
    if (!response) return { status: 404, headers: { 'content-type': 'application/json' }, body: '{"error":"not_found","message":"No such route."}' }
    let status = response.status
    let body = await response.text()
    const out: Record<string, string> = {}
    response.headers.forEach((value, name) => (out[name] = value))
    const json = () => JSON.parse(body) as Record<string, unknown>
    if (method === 'POST' && url.pathname === '/core/users' && status === 201) status = 200
    if (method === 'GET' && url.pathname === '/quantum/v1/status') {
      const { load_percentage: _dropped, ...rest } = json()
      body = JSON.stringify(rest)
    }
    if (method === 'POST' && url.pathname === '/admin/api/v1.2/users' && status === 409) {
      body = JSON.stringify({ ...json(), password: (JSON.parse(text) as { password?: string }).password })
    }
    if (method === 'POST' && url.pathname === '/ledger/v1/stake/delegate' && status === 409) {
      status = 202
      body = JSON.stringify({ transaction_hash: `0x${'ab'.repeat(32)}`, message: 'Delegation accepted for processing.' })
    }
    if (method === 'POST' && url.pathname === '/quantum/v1/measure' && status === 200) {
      const measured = json()
      body = JSON.stringify({ ...measured, correlated_result: measured.result })
    }
    delete out['content-length']
    return { status, headers: out, body }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    secret,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The same token re-signed with fresh times when it has expired: what a server that skips the expiry check would accept. */
async function renewIfExpired(token: string, secret: string): Promise<string> {
  let claims: Record<string, unknown>
  try {
    claims = decodeJwt(token) as Record<string, unknown>
    if (decodeProtectedHeader(token).alg !== 'HS256') return token
  } catch {
    return token
  }
  const now = Math.floor(Date.now() / 1000)
  if (typeof claims.exp !== 'number' || claims.exp > now) return token
  const renewed = { ...claims, iat: now, exp: now + 3600 }
  return new CompactSign(new TextEncoder().encode(JSON.stringify(renewed))).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret))
}
