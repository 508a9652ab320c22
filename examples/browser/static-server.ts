import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
}

/** A throwaway static server and every request it received. */
export interface StaticServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** `GET /app.js`, in arrival order: what did *not* stay inside the browser. */
  readonly requests: string[]
  close(): Promise<void>
}

/**
 * Serves the files of `root` on 127.0.0.1 and a free port, recording every
 * request, so a test can tell which ones reached the network. `/` is
 * `index.html`; nothing outside `root` is served.
 *
 * @example
 * const site = await serveStatic('test-output/browser/site')
 * console.log(site.url, site.requests)
 */
export async function serveStatic(root: string): Promise<StaticServer> {
  const requests: string[] = []
  const server = createServer(async (req, res) => {
    requests.push(`${req.method} ${req.url}`)
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path))
    if (!file.startsWith(normalize(root) + sep) || req.method !== 'GET') {
      res.writeHead(404).end()
      return
    }
    try {
      const body = await readFile(file)
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(body)
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
