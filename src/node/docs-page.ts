import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ApiError, notFound } from '../kernel/errors/api-error.js'
import { errorResponse } from '../kernel/errors/error-response.js'
import type { WireReply } from './wire-reply.js'

/** The files of swagger-ui-dist the page loads, with their types. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
}

/**
 * `GET {control}/docs`: an API reference page of `{control}/openapi.json`
 * (Swagger UI), with every asset served from the installed `swagger-ui-dist`
 * package, so it works with no internet. Node only: the in-process and browser
 * handlers serve the document but not this page (its 2 MB of assets would have
 * to be bundled into every app). Files are read on first use and kept.
 *
 * @example
 * const docs = new DocsPage('/__mock')
 * if (docs.handles(url.pathname)) return docs.answer(request)
 */
export class DocsPage {
  readonly #prefix: string
  readonly #files = new Map<string, Promise<Uint8Array>>()
  #directory: string | undefined

  constructor(controlPrefix: string) {
    this.#prefix = `${controlPrefix}/docs`
  }

  handles(pathname: string): boolean {
    return pathname === this.#prefix || pathname.startsWith(`${this.#prefix}/`)
  }

  /** `path`: the request's path without the query. */
  async answer(request: { method: string; path: string }): Promise<WireReply> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return errorResponse(
        new ApiError(405, 'method_not_allowed', `${request.method} is not supported on the docs page; use GET.`, { extra: { allowed: ['GET'] }, headers: { allow: 'GET' } }),
      )
    }
    const name = request.path.slice(this.#prefix.length).replace(/^\//, '')
    if (name === '') return this.#reply(this.#html(), 'text/html; charset=utf-8')
    // Own names only: `constructor` or `__proto__` would otherwise name a file to read.
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined
    if (!type) return errorResponse(notFound(`No file "${name}" on the docs page; the page itself is ${this.#prefix}.`))
    return this.#reply(await this.#file(name), type, 'public, max-age=3600')
  }

  #reply(body: string | Uint8Array, type: string, cache = 'no-cache'): WireReply {
    // The body stays for HEAD too: its length is the Content-Length; Node writes no body.
    return { status: 200, headers: { 'content-type': type, 'cache-control': cache }, body }
  }

  #file(name: string): Promise<Uint8Array> {
    let file = this.#files.get(name)
    if (!file) {
      this.#directory ??= dirname(fileURLToPath(import.meta.resolve('swagger-ui-dist/package.json')))
      file = readFile(join(this.#directory, name)).then((data) => new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
      this.#files.set(name, file)
    }
    return file
  }

  #html(): string {
    const control = this.#prefix.slice(0, -'/docs'.length)
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>multi-area-mock API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${this.#prefix}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${this.#prefix}/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(`${control}/openapi.json`)},
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  // Nothing leaves this machine: no online validator badge.
  validatorUrl: null,
})
</script>
</body>
</html>
`
  }
}
