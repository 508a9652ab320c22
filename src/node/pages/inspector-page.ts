import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ApiError, notFound } from '../../kernel/errors/api-error.js'
import { errorResponse } from '../../kernel/errors/error-response.js'
import { json } from '../../kernel/http/json/json-response.js'
import type { ReplayedBundle } from '../replay/server-replay.js'
import type { WireReply } from '../server/wire-reply.js'

/** The built page's files (`npm run build` bundles src/inspector/ into dist/inspector/), with their types. */
const ASSETS: Readonly<Record<string, string>> = {
  'inspector.js': 'text/javascript; charset=utf-8',
  'inspector.css': 'text/css; charset=utf-8',
}

/** Everything the page loads is its own; it talks to this server only. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** What the page asks the server about itself (`{ui}/server.json`, behind the control token like the control API). */
export interface InspectorServerInfo {
  /** Absolute path of `--state-file`, or `null` when the world lives in memory only. */
  stateFile: string | null
  /** Whether control calls need `Authorization: Bearer <token>`. */
  controlToken: boolean
  /** The store this replica shares the worlds through (`--store`), without its password, or `null`. */
  store: string | null
  /** The bundle the world was rebuilt from (`--replay`), or `null`. */
  replayed: ReplayedBundle | null
}

/**
 * `GET {control}/ui`: the inspector, a page that shows and steers the world
 * through the control API and the areas' own APIs, with live updates from
 * `{control}/events`. Its script and style are served from the package
 * (dist/inspector/), so it works with no internet. Node only, like the docs
 * page. The page and its two files hold nothing of the world and load without
 * the control token (the page asks for it); `server.json` needs it.
 *
 * @example
 * const inspector = new InspectorPage('/__mock', { stateFile: null, controlToken: false, store: null, replayed: null })
 * if (inspector.handles(path)) return inspector.answer({ method, path })
 */
export class InspectorPage {
  readonly #prefix: string
  readonly #info: InspectorServerInfo
  readonly #files = new Map<string, Promise<Uint8Array>>()

  constructor(controlPrefix: string, info: InspectorServerInfo) {
    this.#prefix = `${controlPrefix}/ui`
    this.#info = info
  }

  handles(pathname: string): boolean {
    return pathname === this.#prefix || pathname.startsWith(`${this.#prefix}/`)
  }

  /** The page and its files: what loads before the page has the control token. */
  isPublic(pathname: string): boolean {
    return this.handles(pathname) && pathname !== `${this.#prefix}/server.json`
  }

  /** `path`: the request's path without the query. */
  async answer(request: { method: string; path: string }): Promise<WireReply> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return errorResponse(
        new ApiError(405, 'method_not_allowed', `${request.method} is not supported on the inspector page; use GET.`, { extra: { allowed: ['GET'] }, headers: { allow: 'GET' } }),
      )
    }
    const name = request.path.slice(this.#prefix.length).replace(/^\//, '')
    if (name === '') return this.#reply(this.#html(), 'text/html; charset=utf-8', { 'content-security-policy': CONTENT_SECURITY_POLICY })
    if (name === 'server.json') return json(this.#info, 200, { 'cache-control': 'no-store' })
    // Own names only: `constructor` or `__proto__` would otherwise name a file to read.
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined
    if (!type) return errorResponse(notFound(`No file "${name}" on the inspector page; the page itself is ${this.#prefix}.`))
    try {
      return this.#reply(await this.#file(name), type)
    } catch {
      this.#files.delete(name)
      return errorResponse(notFound(`The inspector's ${name} is missing from dist/inspector/: run "npm run build" in the multi-area-mock package.`))
    }
  }

  #reply(body: string | Uint8Array, type: string, headers: Record<string, string> = {}): WireReply {
    // no-store, as every control answer: never an old script after an upgrade (the files carry no validator to
    // revalidate with anyway), and the script the page trusts with the token is never read as another type.
    return { status: 200, headers: { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers }, body }
  }

  #file(name: string): Promise<Uint8Array> {
    let file = this.#files.get(name)
    if (!file) {
      file = readFile(join(packageRoot(), 'dist', 'inspector', name)).then((data) => new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
      this.#files.set(name, file)
    }
    return file
  }

  #html(): string {
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>multi-area-mock inspector</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${this.#prefix}/inspector.css">
<script type="module" src="${this.#prefix}/inspector.js"></script>
</head>
<body>
<noscript>The inspector needs JavaScript. The same data is at ${this.#prefix.slice(0, -'/ui'.length)}/state and ${this.#prefix.slice(0, -'/ui'.length)}/requests.</noscript>
<div id="app" data-control="${this.#prefix.slice(0, -'/ui'.length)}"></div>
</body>
</html>
`
  }
}

/** The installed package's folder: from its own name (the CLI bundle, dist/src), else two folders up from this file (the sources in tests). */
function packageRoot(): string {
  try {
    return dirname(fileURLToPath(import.meta.resolve('multi-area-mock/package.json')))
  } catch {
    return fileURLToPath(new URL('../../../', import.meta.url))
  }
}
