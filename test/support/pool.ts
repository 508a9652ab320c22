import { Agent, request } from 'node:http'

/** One answer, read whole; `body` is parsed when it is JSON. */
export interface PoolReply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: any
  text: string
}

export interface Pool {
  send(method: string, path: string, options?: { json?: unknown; body?: string; headers?: Record<string, string> }): Promise<PoolReply>
  /** Closes every socket of the pool. */
  close(): void
}

/**
 * HTTP requests to `base` over a pool of up to `sockets` keep-alive
 * connections, so that many requests really are in flight at once (fetch's
 * default pool would queue them).
 *
 * @example
 * const pool = createPool(server.url, 1000)
 * const replies = await Promise.all(names.map((username) => pool.send('POST', '/core/users', { json: { username } })))
 * pool.close()
 */
export function createPool(base: string, sockets: number): Pool {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets })
  const { hostname, port } = new URL(base)
  return {
    send(method, path, options = {}) {
      const body = options.json !== undefined ? JSON.stringify(options.json) : options.body
      const headers: Record<string, string> = { ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers }
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body))
      return new Promise((resolve, reject) => {
        const outgoing = request({ agent, hostname, port, method, path, headers, timeout: 30_000 }, (incoming) => {
          let text = ''
          incoming.setEncoding('utf8')
          incoming.on('data', (chunk: string) => (text += chunk))
          incoming.on('error', reject)
          incoming.on('end', () => {
            const json = String(incoming.headers['content-type'] ?? '').includes('json') && text !== ''
            resolve({ status: incoming.statusCode!, headers: incoming.headers, body: json ? JSON.parse(text) : text, text })
          })
        })
        outgoing.on('timeout', () => outgoing.destroy(new Error(`${method} ${path}: no answer within 30 s`)))
        outgoing.on('error', reject)
        outgoing.end(body)
      })
    },
    close: () => agent.destroy(),
  }
}
