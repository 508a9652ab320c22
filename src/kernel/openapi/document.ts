import { ConfigError } from '../errors/config-error.js'
import type { ErrorCode } from '../errors/error-codes.js'
import type { Mount } from '../routing/route.js'
import { exampleKey, type ExampleSet } from './examples.js'
import { BEARER_SCHEME, REF, buildOperation, errorBodyComponent, errorVariant, headerComponents } from './operation.js'
import { SchemaComponents } from './schema-components.js'

/** An OpenAPI 3.1 document, as JSON. */
export interface OpenApiDocument {
  openapi: '3.1.0'
  info: { title: string; version: string; description?: string }
  servers: Array<{ url: string; description?: string }>
  tags: Array<{ name: string; description?: string }>
  paths: Record<string, Record<string, unknown>>
  components: Record<string, Record<string, unknown>>
  [extension: `x-${string}`]: unknown
}

/** How one area (or the control API) appears in the document. */
export interface DocumentedArea {
  /** Tag of its operations, e.g. `Area A: User administration`. */
  tag: string
  description?: string
  /** Whether its routes may answer 503 (injected faults, maintenance). */
  faults: boolean
  /** Codes every route of the area may answer besides its own (the control API's 401 for a missing control token). */
  codes?: readonly ErrorCode[]
}

export interface OpenApiInput {
  info: OpenApiDocument['info']
  /** The route table: every mount of every area (`dispatcher.mounts`). */
  mounts: readonly Mount[]
  /** By area id (`admin`, `control`...). */
  areas: Readonly<Record<string, DocumentedArea>>
  /** Origin the document is served from (`http://127.0.0.1:4000`); omitted: relative server URLs. */
  origin?: string
  /** Only this area: paths as the spec writes them, every base URL of the area as a server. */
  area?: string
  examples?: ExampleSet
}

/**
 * The OpenAPI 3.1 document of a route table. Without `area`, one operation per
 * route of every mount: paths carry the mount prefix (`/admin/api/v1.2/users`)
 * so one client with the server origin as base URL reaches every area, and a
 * second mount of an area (`--root`, D2) repeats its operations at `/` with
 * `AtRoot` operation ids. Areas on another origin (`baseUrls`) get a path-level
 * server. With `area`, the paths are the area's own and its base URLs are the
 * servers, for a client of that area alone.
 *
 * @example
 * const doc = buildOpenApiDocument({ info: { title: 'x', version: '1' }, mounts: dispatcher.mounts, areas, origin: 'http://127.0.0.1:4000' })
 */
export function buildOpenApiDocument(input: OpenApiInput): OpenApiDocument {
  const components = new SchemaComponents()
  errorBodyComponent(components)
  const mounts = input.area === undefined ? input.mounts : input.mounts.filter((mount) => mount.area === input.area)
  if (mounts.length === 0) throw new ConfigError(`No area "${input.area}" is mounted.`)
  const paths: OpenApiDocument['paths'] = {}
  const responses: Record<string, unknown> = dispatcherResponses(components)
  const origins = new Map<string, string | null>()
  const mountIndex = new Map<string, number>()
  let bearer = false
  for (const mount of input.area === undefined ? mounts : mounts.slice(0, 1)) {
    const area = input.areas[mount.area] ?? { tag: mount.area, faults: false }
    const index = mountIndex.get(mount.area) ?? 0
    mountIndex.set(mount.area, index + 1)
    const suffix = index === 0 ? '' : mount.prefix === '' ? 'AtRoot' : `AtMount${index + 1}`
    for (const route of mount.routes) {
      const path = input.area === undefined ? `${mount.prefix}${route.path}` : route.path
      const method = route.method.toLowerCase()
      const item = (paths[path] ??= {})
      if (input.area === undefined) {
        const origin = origins.get(path)
        if (origin !== undefined && origin !== mount.origin) throw clash(path, `${origin ?? 'any origin'} and ${mount.origin ?? 'any origin'}`)
        origins.set(path, mount.origin)
        if (mount.origin !== null) item.servers = [{ url: mount.origin }]
      }
      if (item[method]) throw clash(path, route.method)
      item[method] = buildOperation(route, {
        operationId: `${mount.area}${capitalise(route.operationId ?? derivedOperationId(route.method, route.path))}${suffix}`,
        tag: area.tag,
        faults: area.faults,
        extraCodes: area.codes ?? [],
        components,
        responses,
        examples: input.examples?.get(exampleKey(mount.area, route)) ?? [],
      })
      bearer ||= route.security?.scheme === 'bearer'
    }
  }
  const used = new Set(mounts.map((mount) => mount.area))
  return {
    openapi: '3.1.0',
    info: input.info,
    servers: input.area === undefined ? [{ url: input.origin ?? '/', description: 'This simulator' }] : mounts.map((mount) => ({ url: baseUrl(mount, input.origin) })),
    tags: Object.entries(input.areas)
      .filter(([id]) => used.has(id))
      .map(([, area]) => ({ name: area.tag, ...(area.description ? { description: area.description } : {}) })),
    paths,
    components: {
      schemas: components.schemas,
      responses,
      headers: headerComponents(components),
      ...(bearer ? { securitySchemes: { [BEARER_SCHEME]: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A token from `POST /auth/login` (D7).' } } } : {}),
    },
  }
}

/**
 * Answers that belong to no operation: the router's for an unknown route and for
 * a known path with another method, and the HTTP server's for a request too
 * large to parse, which any URL can get.
 */
function dispatcherResponses(components: SchemaComponents): Record<string, unknown> {
  const content = (code: 'not_found' | 'method_not_allowed' | 'headers_too_large') => ({
    'application/json': { schema: { allOf: [{ $ref: REF.errorBody }, components.convert(errorVariant(code), 'output')] } },
  })
  return {
    UnknownRoute: { description: 'No route matches the URL: the mounted areas are listed and the closest route suggested (D27).', content: content('not_found') },
    MethodNotAllowed: { description: 'The path exists, but not with this method.', headers: { Allow: { $ref: REF.header('Allow') } }, content: content('method_not_allowed') },
    HeadersTooLarge: { description: 'The HTTP server refuses a request line and headers over 16 KiB, whatever the URL.', content: content('headers_too_large') },
  }
}

function baseUrl(mount: Mount, origin: string | undefined): string {
  return `${mount.origin ?? origin ?? ''}${mount.prefix}` || '/'
}

/** `GET /users/{id}` → `getUsersById`, for routes that do not name their operation yet. */
function derivedOperationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith('{') ? `by ${segment.slice(1, -1)}` : segment))
    .join(' ')
  return `${method.toLowerCase()} ${words}`.replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ? next.toUpperCase() : ''))
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function clash(path: string, what: string): ConfigError {
  return new ConfigError(`Cannot describe ${path} twice (${what}) in one OpenAPI document; ask for one area at a time (--area, ?area=).`)
}
