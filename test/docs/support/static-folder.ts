import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'

/** A folder served over HTTP on loopback, as a static host serves it. */
export interface StaticFolder {
  url: string
  close(): Promise<void>
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.md': 'text/markdown',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.zip': 'application/zip',
}

/**
 * Serves `root` (a built page such as Playwright's HTML report) on a free
 * loopback port: GET only, `/` is `index.html`, nothing outside `root`.
 * The page then loads as from a static host, where `file://` would refuse
 * some of what it fetches.
 *
 * @example
 * const report = await serveFolder('playwright-report')
 * await page.goto(report.url)
 * await report.close()
 */
export async function serveFolder(root: string): Promise<StaticFolder> {
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://folder').pathname))
    const file = join(root, path === sep ? 'index.html' : path)
    if (request.method !== 'GET' || !file.startsWith(root)) {
      response.writeHead(404).end()
      return
    }
    try {
      const body = await readFile(file)
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body)
    } catch {
      response.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
