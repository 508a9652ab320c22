import { Agent, createServer, type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Balancer {
  /** `http://127.0.0.1:<port>`: what clients send to. */
  readonly url: string
  /** The replicas' base URLs, in the order they take turns. */
  readonly targets: readonly string[]
  /** How many requests each target was sent (a target is its base URL). */
  readonly sent: ReadonlyMap<string, number>
  /** Takes turns over these replicas from the next request on (say, without a killed one). */
  use(targets: readonly string[]): void
  /** Ends every connection, both sides, and stops listening. */
  close(): Promise<void>
}

/** Headers about one connection only (RFC 9110 §7.6.1): not forwarded. Transfer-Encoding is kept: Node frames the body by it again. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'upgrade'])

/**
 * A tiny round-robin HTTP balancer on a free 127.0.0.1 port, as the replicas
 * of `serve --store` sit behind in production: each request goes to the next
 * replica in turn, its body and the answer streamed through as they come.
 * `Host` is forwarded as the client sent it (an IP address here, which every
 * replica's host policy answers; a name would need `--allowed-host` on the
 * replicas, as behind a real balancer), with `X-Forwarded-For/-Host/-Proto`
 * added. A replica that refuses the connection answers 502 `bad_gateway`, as
 * balancers do; one that hangs up without an answer (a `drop` fault, a
 * crash) makes the balancer hang up on the client too: unanswered either way.
 *
 * @example
 * const balancer = await startBalancer([a.url, b.url, c.url])
 * await fetch(`${balancer.url}/core/users`)
 * await balancer.close()
 */
export async function startBalancer(targets: readonly string[]): Promise<Balancer> {
  if (targets.length === 0) throw new Error('A balancer needs at least one target.')
  let turn = 0
  let current = [...targets]
  const sent = new Map<string, number>()
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY })
  const server = createServer((incoming, outgoing) => {
    const target = current[turn++ % current.length]!
    sent.set(target, (sent.get(target) ?? 0) + 1)
    forward(incoming, outgoing, new URL(target), agent)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    get targets() {
      return current
    },
    sent,
    use(next) {
      if (next.length === 0) throw new Error('A balancer needs at least one target.')
      current = [...next]
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      agent.destroy()
    },
  }
}

function forward(incoming: IncomingMessage, outgoing: ServerResponse, target: URL, agent: Agent): void {
  const headers = passable(incoming.headers)
  const client = incoming.socket.remoteAddress ?? '127.0.0.1'
  headers['x-forwarded-for'] = incoming.headers['x-forwarded-for'] ? `${incoming.headers['x-forwarded-for']}, ${client}` : client
  if (incoming.headers.host !== undefined) headers['x-forwarded-host'] = incoming.headers.host
  headers['x-forwarded-proto'] = 'http'
  const upstream = request({ agent, host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers }, (answer) => {
    outgoing.writeHead(answer.statusCode ?? 502, answer.statusMessage, passable(answer.headers))
    answer.pipe(outgoing)
    // A replica killed mid-answer: the client must see a cut answer, never a whole-looking one.
    answer.once('error', () => outgoing.destroy())
    answer.once('close', () => {
      if (!answer.complete) outgoing.destroy()
    })
  })
  upstream.once('error', (error: NodeJS.ErrnoException) => {
    // After the whole answer (a replica hanging up on an upload it refused): nothing to tell the client.
    if (outgoing.writableFinished) return
    // A replica that took the request and hung up (a `drop` fault, a crash) hangs up on the client too.
    if (outgoing.headersSent || error.code !== 'ECONNREFUSED') return void outgoing.destroy()
    const body = JSON.stringify({ error: 'bad_gateway', message: `The balancer could not reach ${target.host}: ${error.message}.` })
    outgoing.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body)
  })
  // The client gave up: so does the request to the replica.
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) upstream.destroy()
  })
  // Answered before the whole upload arrived (a 413, say): the rest goes nowhere, and the
  // client's connection stays usable for its next request.
  outgoing.once('finish', () => {
    if (incoming.complete) return
    incoming.unpipe(upstream)
    upstream.destroy()
    incoming.resume()
  })
  incoming.pipe(upstream)
}

/** The headers a proxy passes on: all but the hop-by-hop ones (and those `Connection` names). */
function passable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
  const kept: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.includes(name)) kept[name] = value
  }
  return kept
}
