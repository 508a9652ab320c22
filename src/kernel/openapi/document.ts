import { ConfigError } from '../errors/config-error.js'
import { RESPONSE_HEADERS } from '../http/response-headers.js'
import type { Mount } from '../routing/route.js'
import { errorBody } from './error-body.js'
import { exampleKey, type ExampleSet } from './examples.js'
import { buildOperation } from './operation.js'
import { REF, ResponseParts } from './response-parts.js'
import { SchemaComponents } from './schema-components.js'
import { type AreaSecurity, securitySchemes } from './security.js'

/** An OpenAPI 3.1 document, as JSON. */
export interface OpenApiDocument {
  openapi: '3.1.0'
  info: { title: string; version: string; description?: string; license?: { name: string; identifier?: string; url?: string } }
  servers: Array<{ url: string; description?: string }>
  tags: Array<{ name: string; description?: string }>
  paths: Record<string, Record<string, unknown>>
  components: Record<string, Record<string, unknown>>
  [extension: `x-${string}`]: unknown
}

/** How one area (or the control API) appears in the document. */
export interface DocumentedArea {
  /** Tag of its operations: short, as tools name folders and files after it (`admin`). */
  tag: string
  /** The tag's description: the area's title and base URLs. */
  description?: string
  /** Whether injected faults reach its routes: any error status 400-599. */
  faults: boolean
  /** A scheme that guards its routes from outside them (the control token). */
  security?: AreaSecurity
  /** Operation ids (the routes' own) that answer whatever world a request names: no unknown-world 404. */
  anyWorld?: readonly string[]
  /** Prefix of the error responses its operations share (`Control`: `ControlNotFound`); none by default. */
  responsePrefix?: string
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
 * second mount of an area (`--root`) repeats its operations at `/` with
 * `AtRoot` operation ids. Areas on another origin (`baseUrls`) get a path-level
 * server. With `area`, the paths are the area's own and its base URLs are the
 * servers, for a client of that area alone. Every operation has a tag and a
 * `security` (`[]` when it needs none); the answers of no operation (an unknown
 * route, another method, headers too large) are in `x-unrouted-responses`.
 *
 * @example
 * const doc = buildOpenApiDocument({ info: { title: 'x', version: '1' }, mounts: dispatcher.mounts, areas, origin: 'http://127.0.0.1:4000' })
 */
export function buildOpenApiDocument(input: OpenApiInput): OpenApiDocument {
  const components = new SchemaComponents()
  components.convert(errorBody, 'output')
  const parts = new ResponseParts(components)
  const mounts = input.area === undefined ? input.mounts : input.mounts.filter((mount) => mount.area === input.area)
  if (mounts.length === 0) throw new ConfigError(`No area "${input.area}" is mounted.`)
  const paths: OpenApiDocument['paths'] = {}
  const origins = new Map<string, string | null>()
  const mountIndex = new Map<string, number>()
  const schemesUsed = new Set<string>()
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
      const operation = buildOperation(route, {
        operationId: `${mount.area}${capitalise(route.operationId ?? derivedOperationId(route.method, route.path))}${suffix}`,
        tag: area.tag,
        faults: area.faults,
        ...(area.security ? { security: area.security } : {}),
        anyWorld: route.operationId !== undefined && (area.anyWorld ?? []).includes(route.operationId),
        namePrefix: area.responsePrefix ?? '',
        parts,
        examples: input.examples?.get(exampleKey(mount.area, route)) ?? [],
      })
      for (const requirement of operation.security as Array<Record<string, unknown>>) for (const scheme of Object.keys(requirement)) schemesUsed.add(scheme)
      item[method] = operation
    }
  }
  const used = new Set(mounts.map((mount) => mount.area))
  const schemes = securitySchemes(
    schemesUsed,
    Object.values(input.areas).flatMap((area) => (area.security ? [area.security] : [])),
  )
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
      responses: parts.responses,
      headers: parts.headerComponents(),
      ...(Object.keys(schemes).length > 0 ? { securitySchemes: schemes } : {}),
    },
    'x-unrouted-responses': unroutedResponses(components),
  }
}

/**
 * Answers that belong to no operation, which OpenAPI has no place for: the
 * router's for an unknown route and for a known path with another method, and
 * the HTTP server's for a request too large to parse, which any URL can get.
 * Their schemas refer to `components.schemas` like the operations' do.
 */
function unroutedResponses(components: SchemaComponents): Record<string, unknown> {
  const content = (code: 'not_found' | 'method_not_allowed' | 'headers_too_large') => ({
    'application/json': { schema: { allOf: [{ $ref: REF.schema('ErrorBody') }, { properties: { error: { const: code } }, required: ['error'] }] } },
  })
  return {
    UnknownRoute: {
      description: 'No route matches the URL: 404 `not_found`, with the mounted areas listed and the closest route suggested.',
      content: content('not_found'),
    },
    MethodNotAllowed: {
      description: 'The path exists, but not with this method: 405 `method_not_allowed`; `Allow` lists the methods.',
      headers: {
        Allow: {
          description: RESPONSE_HEADERS.Allow.description,
          required: true,
          schema: components.convert(RESPONSE_HEADERS.Allow.schema, 'output'),
          example: RESPONSE_HEADERS.Allow.example,
        },
      },
      content: content('method_not_allowed'),
    },
    HeadersTooLarge: {
      description: 'The HTTP server refuses a request line and headers over 16 KiB, whatever the URL: 431 `headers_too_large`.',
      content: content('headers_too_large'),
    },
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
