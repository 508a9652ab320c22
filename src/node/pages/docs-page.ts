import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ApiError, notFound } from '../../kernel/errors/api-error.js'
import { errorResponse } from '../../kernel/errors/error-response.js'
import { docsPageScript } from './docs-page-script.js'
import { PLAIN_PAGE_POLICY, PLAIN_PAGE_STYLE, plainPage, SWAGGER_INSTALL, SWAGGER_PAGE_POLICY, swaggerInit, swaggerPage } from './docs-page-views.js'
import type { WireReply } from '../server/wire-reply.js'

/** The files of swagger-ui-dist the interactive page loads, with their types. */
const SWAGGER_ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
}

/** Options of `DocsPage`. */
export interface DocsPageOptions {
  /**
   * The folder of swagger-ui-dist: by default the one installed next to this
   * package, looked up again on each page load while there is none (so
   * installing it needs no restart); `null` serves the plain page.
   */
  swaggerUi?: string | null
}

/**
 * `GET {control}/docs`: the API reference page of `{control}/openapi.json`.
 * With the optional package `swagger-ui-dist` installed, Swagger UI, its files
 * served from that package; without it, a plain list of the operations, the
 * document's link and the command that adds the interactive page. Nothing is
 * fetched from the internet either way. Node only: the in-process and browser
 * handlers serve the document but not this page.
 *
 * @example
 * const docs = new DocsPage('/__mock')
 * if (docs.handles(url.pathname)) return docs.answer(request)
 */
export class DocsPage {
  readonly #prefix: string
  readonly #documentUrl: string
  readonly #files = new Map<string, Promise<Uint8Array>>()
  #swaggerUi: string | null | undefined

  constructor(controlPrefix: string, options: DocsPageOptions = {}) {
    this.#prefix = `${controlPrefix}/docs`
    this.#documentUrl = `${controlPrefix}/openapi.json`
    this.#swaggerUi = options.swaggerUi
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
    if (name === '') {
      return this.#swaggerDirectory()
        ? this.#reply(swaggerPage(this.#prefix), 'text/html; charset=utf-8', { 'content-security-policy': SWAGGER_PAGE_POLICY })
        : this.#reply(plainPage(this.#prefix, this.#documentUrl), 'text/html; charset=utf-8', { 'content-security-policy': PLAIN_PAGE_POLICY })
    }
    if (name === 'operations.js') return this.#reply(docsPageScript(this.#documentUrl), 'text/javascript; charset=utf-8')
    if (name === 'operations.css') return this.#reply(PLAIN_PAGE_STYLE, 'text/css; charset=utf-8')
    if (name === 'swagger-init.js') return this.#reply(swaggerInit(this.#documentUrl), 'text/javascript; charset=utf-8')
    // Own names only: `constructor` or `__proto__` would otherwise name a file to read.
    const type = Object.hasOwn(SWAGGER_ASSETS, name) ? SWAGGER_ASSETS[name] : undefined
    if (!type) return errorResponse(notFound(`No file "${name}" on the docs page; the page itself is ${this.#prefix}.`))
    const directory = this.#swaggerDirectory()
    if (!directory) return errorResponse(notFound(`${name} is a file of swagger-ui-dist, which is not installed: run "${SWAGGER_INSTALL}" for the interactive page.`))
    return this.#reply(await this.#file(directory, name), type, { 'cache-control': 'public, max-age=3600' })
  }

  #reply(body: string | Uint8Array, type: string, headers: Record<string, string> = {}): WireReply {
    // The body stays for HEAD too: its length is the Content-Length; Node writes no body.
    return { status: 200, headers: { 'content-type': type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', ...headers }, body }
  }

  /** swagger-ui-dist's folder, or `null`; a folder found once is kept, an absence is checked again next time. */
  #swaggerDirectory(): string | null {
    if (this.#swaggerUi === undefined) {
      try {
        return (this.#swaggerUi = dirname(fileURLToPath(import.meta.resolve('swagger-ui-dist/package.json'))))
      } catch {
        return null
      }
    }
    return this.#swaggerUi
  }

  #file(directory: string, name: string): Promise<Uint8Array> {
    let file = this.#files.get(name)
    if (!file) {
      file = readFile(join(directory, name)).then((data) => new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
      file.catch(() => this.#files.delete(name))
      this.#files.set(name, file)
    }
    return file
  }
}
