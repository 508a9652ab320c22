import fc from 'fast-check'
import type { Mount, RouteDefinition, RouteExample } from '../../src/kernel/routing/route.js'
import { type ObservedReply, OpenApiCheck } from './openapi-check.js'

/** What the fuzzer knows of the seeded world, to build valid requests before bending them. */
export interface WorldFacts {
  /** A `Bearer` token of a seeded user (Area D). */
  token: string
  userId: string
  username: string
  productId: string
  particleId: string
  resourceId: string
  tokenId: string
  validator: string
  /** A valid state document (`PUT /__mock/state`). */
  state: unknown
}

/** A valid request of one route: what its documented examples send, or a seed of ours where it has none yet. */
type Seed = RouteExample

/** One route of the route table, with the valid requests it starts from. */
export interface Target {
  area: string
  method: string
  /** Full path pattern, e.g. `/admin/api/v1.2/users/{userId}`. */
  pattern: string
  queryKeys: string[]
  seeds: Seed[]
}

/** One generated request. */
export interface FuzzRequest {
  method: string
  /** Path and query, e.g. `/core/users?limit=x`. */
  target: string
  headers: Record<string, string>
  body?: Uint8Array
  /** Which route it was made from. */
  route: string
}

/**
 * Every route of the simulator's route table (`dispatcher.mounts`, never a
 * hand list), each with its documented examples as valid seeds, or a seed of
 * ours for routes whose documentation has none yet. A route with a path
 * parameter or a body and no seed at all fails here, so a new route cannot be
 * left out of the fuzzing unnoticed.
 *
 * @example
 * const targets = await fuzzTargets(sim.dispatcher.mounts, facts)
 */
export async function fuzzTargets(mounts: readonly Mount[], facts: WorldFacts): Promise<Target[]> {
  const fallback = fallbackSeeds(facts)
  const targets: Target[] = []
  for (const mount of mounts) {
    for (const route of mount.routes) {
      // An event stream never ends, so no answer can be read whole: test/events.test.ts covers it.
      if (Object.values(route.responses ?? {}).some((response) => response.contentType === 'text/event-stream')) continue
      const pattern = `${mount.prefix}${route.path}`
      const key = `${route.method} ${pattern}`
      const examples: Seed[] = (await route.examples?.()) ?? []
      const seeds = [...examples, ...(fallback[key] ?? [])]
      const needsSeed = route.path.includes('{') || route.method === 'POST' || route.method === 'PUT'
      if (seeds.length === 0 && needsSeed && !(key in fallback)) throw new Error(`No valid request to start fuzzing ${key} from: give the route examples.`)
      targets.push({ area: mount.area, method: route.method, pattern, queryKeys: queryKeys(route), seeds: seeds.length > 0 ? seeds : [{}] })
    }
  }
  return targets
}

/** Seeds for routes whose documentation has no examples (yet). */
function fallbackSeeds(facts: WorldFacts): Record<string, Seed[]> {
  const bearer = { authorization: `Bearer ${facts.token}` }
  return {
    'POST /__mock/reset': [{}],
    // Answers 404 on a simulator that records nothing (the fuzzed ones): still a documented answer.
    'POST /__mock/recording/save': [{}],
    'PUT /__mock/state': [{ body: facts.state }],
    'GET /__mock/requests': [{ query: { method: 'POST', status: '4xx', limit: '3' } }],
    'PUT /__mock/faults': [{ body: { rules: [] } }],
    'POST /__mock/faults': [{ body: { route: '/nowhere', status: 503 } }],
    'POST /__mock/worlds': [{ body: {} }, { body: { scenario: 'empty', seed: 3 } }],
    'GET /__mock/worlds/{worldId}': [{ params: { worldId: 'world-1' } }],
    'DELETE /__mock/worlds/{worldId}': [{ params: { worldId: 'world-1' } }],
    'POST /quantum/v1/entangle': [{ body: { particle_type: 'electron', entanglement_mode: 'spin' } }],
    'GET /quantum/v1/particles/{particle_id}': [{ params: { particle_id: facts.particleId } }],
    'POST /quantum/v1/measure': [{ body: { particle_id: facts.particleId, measurement_axis: 'x-axis' } }],
    'POST /general/auth/login': [{ body: { username: facts.username, password: 'Passw0rd!' } }],
    'GET /general/data/{resource_id}': [{ params: { resource_id: facts.resourceId }, query: { fields: 'title,owner' } }],
    'PUT /general/resources/{id}': [{ params: { id: facts.resourceId }, body: { data: { title: 'Fuzzed', tags: ['a'] } }, headers: bearer }],
    'POST /general/notifications/send': [{ body: { recipient_ids: [1, 2], message: 'hello', priority: 'high' } }],
    'GET /ledger/v1/tokens/{tokenId}': [{ params: { tokenId: facts.tokenId } }],
    'POST /ledger/v1/stake/delegate': [
      { body: { delegatorAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', validatorAddress: facts.validator, amount: '1000', signature: `0x${'ab'.repeat(65)}` } },
    ],
  }
}

function queryKeys(route: RouteDefinition): string[] {
  const shape = (route.query as { shape?: Record<string, unknown> } | undefined)?.shape
  return shape ? Object.keys(shape) : []
}

// ---------------------------------------------------------------------------
// Values that break things

const HUGE_NUMBERS = [1e308, -1e308, 2 ** 53 + 1, -(2 ** 63), Number.MAX_SAFE_INTEGER, Number.MIN_VALUE, -0, 0.1, 1e-7, 123456.789]
const ODD_STRINGS = ['', ' ', '\u0000', '\u202e', '😀'.repeat(3), 'é', '\ud800', '<script>', '../..', '%00', 'null', 'NaN', '1e999', '-1', '0x10', 'x'.repeat(5_000)]
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype']

/** A JSON value no schema expects: odd strings, huge numbers, deep nesting, and the like. */
const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...ODD_STRINGS),
  fc.constantFrom(...HUGE_NUMBERS),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.integer({ min: 1, max: 2_000 }).map(nested),
  fc.jsonValue({ maxDepth: 3 }),
)

function nested(depth: number): unknown {
  let value: unknown = 'bottom'
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { a: value }
  return value
}

/** An object whose own keys may include `__proto__` (a literal would set the prototype instead). */
function withKey(object: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {}
  for (const [name, inner] of Object.entries(object)) Object.defineProperty(copy, name, { value: inner, enumerable: true, writable: true, configurable: true })
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true })
  return copy
}

type Mutation =
  | { kind: 'keep' }
  | { kind: 'drop'; at: number }
  | { kind: 'set'; at: number; value: unknown }
  | { kind: 'extra'; key: string; value: unknown }
  | { kind: 'nested'; at: number; value: unknown }
  | { kind: 'replace'; value: unknown }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'keep' as const }) },
  { weight: 2, arbitrary: fc.nat().map((at) => ({ kind: 'drop' as const, at })) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: weirdValue }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('extra' as const), key: fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 10 })), value: weirdValue }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('nested' as const), at: fc.nat(), value: weirdValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replace' as const), value: weirdValue }) },
)

/** Applies a mutation to a valid body: drop or change a field (also one level down), add one, or swap the whole thing. */
function mutate(body: unknown, change: Mutation): unknown {
  if (change.kind === 'keep') return body
  if (change.kind === 'replace') return change.value
  if (Array.isArray(body)) {
    if (body.length === 0) return change.kind === 'extra' ? [change.value] : body
    const at = 'at' in change ? change.at % body.length : 0
    if (change.kind === 'drop') return body.filter((_, index) => index !== at)
    if (change.kind === 'set') return body.map((item, index) => (index === at ? change.value : item))
    return body.map((item, index) => (index === at ? mutate(item, { ...change, kind: change.kind === 'nested' ? 'set' : change.kind } as Mutation) : item))
  }
  if (body === null || typeof body !== 'object') return change.kind === 'extra' ? withKey({}, change.key, change.value) : body
  const object = body as Record<string, unknown>
  const keys = Object.keys(object)
  if (change.kind === 'extra') return withKey(object, change.key, change.value)
  if (keys.length === 0) return body
  const key = keys[change.at % keys.length]!
  if (change.kind === 'drop') return Object.fromEntries(Object.entries(object).filter(([name]) => name !== key))
  if (change.kind === 'set') return withKey(object, key, change.value)
  return withKey(object, key, mutate(object[key], { kind: 'set', at: change.at, value: change.value }))
}

/** How the body goes on the wire: JSON as usual, or text that only looks like it. */
const encoding = fc.oneof(
  { weight: 8, arbitrary: fc.constant('json' as const) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'truncated' as const,
      'bom' as const,
      'garbage' as const,
      'form' as const,
      'empty' as const,
      'latin1' as const,
      'bignum' as const,
      'duplicate' as const,
    ),
  },
)

function encode(body: unknown, how: string): Uint8Array {
  const text = body === undefined ? '' : (JSON.stringify(body) ?? 'null')
  const utf8 = (value: string) => new TextEncoder().encode(value)
  switch (how) {
    case 'truncated':
      return utf8(text.slice(0, Math.max(1, Math.floor(text.length / 2))))
    case 'bom':
      return utf8(`\ufeff${text}`)
    case 'garbage':
      return utf8('{not json at all]')
    case 'form':
      return utf8('username=someone&password=hunter2')
    case 'empty':
      return new Uint8Array()
    case 'latin1':
      return Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0xff, 0xfe, 0x22, 0x7d]) // {"a":"é\xff\xfe"} as bytes, not UTF-8
    case 'bignum':
      return utf8(text.replace(/:(\d+)/, ':123456789012345678901234567890e400'))
    case 'duplicate':
      return utf8(text.startsWith('{') && text.length > 2 ? `{"__proto__":{"polluted":1},${text.slice(1, -1)},${text.slice(1, -1)}}` : text)
    default:
      return utf8(text)
  }
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/merge-patch+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  ';;;',
]

const oddSegment = fc.oneof(
  fc.constantFrom('0', '-1', '1.5', '1e3', '99999999999999999999', 'null', '__proto__', 'constructor', '%00', '%E0%A4%A', '%2e%2e', '..', ' ', 'a'.repeat(3_000), '%F0%9F%98%80'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encodeURIComponent),
)

const oddQueryValue = fc.oneof(fc.constantFrom('', '-1', '0', '1e3', '2.5', '999999999999999999999', 'true', 'x'.repeat(2_000)), fc.string({ unit: 'grapheme', maxLength: 20 }))

/** Header values as HTTP allows them (printable Latin-1), so a request can always be built. */
const headerText = fc.string({ maxLength: 60 }).map((text) => text.replace(/[^\x20-\x7e]/g, '?').trim())

/**
 * One fuzzed request: a route of the table, a valid seed of it, then some of:
 * another method, odd path segments, odd query parameters, a changed body sent
 * in a changed encoding and content type, odd headers.
 *
 * @example
 * fc.assert(fc.asyncProperty(fuzzRequest(targets), async (request) => ...), { seed: 1, numRuns: 3000 })
 */
export function fuzzRequest(targets: readonly Target[]): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      target: fc.constantFrom(...targets),
      seedAt: fc.nat(),
      method: fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') }),
      segments: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.array(oddSegment, { minLength: 1, maxLength: 2 }) }),
      query: fc.oneof(
        { weight: 3, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.array(fc.tuple(fc.option(fc.string({ maxLength: 8 })), oddQueryValue), { maxLength: 3 }) },
      ),
      rawQuery: fc.oneof({ weight: 9, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('&page=%ZZ', '&%E0%A4%A=1', '&&&', '&limit', '&=') }),
      change: mutation,
      how: encoding,
      contentType: fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 2, arbitrary: fc.option(fc.constantFrom(...CONTENT_TYPES)) }),
      headers: fc.oneof(
        { weight: 5, arbitrary: fc.constant({}) },
        {
          weight: 1,
          arbitrary: fc.record(
            {
              authorization: fc.oneof(
                headerText.map((text) => `Bearer ${text}`),
                headerText,
                fc.constant('Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.'),
              ),
              'x-mock-world': fc.oneof(headerText, fc.constantFrom('default', 'world-1', '../x', 'a'.repeat(100))),
              origin: fc.constantFrom('http://app.test', 'null', 'garbage'),
              accept: headerText,
              cookie: headerText.map((text) => `mock-world=${text}`),
            },
            { requiredKeys: [] },
          ),
        },
      ),
    })
    .map((draw) => {
      const { target } = draw
      const seed = target.seeds[draw.seedAt % target.seeds.length]!
      const method = draw.method ?? target.method
      let odd = 0
      const path = target.pattern.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const oddOne = draw.segments?.[odd++]
        return oddOne ?? encodeURIComponent(seed.params?.[name] ?? 'x')
      })
      const pairs: Array<[string, string]> = Object.entries(seed.query ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined)
      for (const [name, value] of draw.query ?? []) pairs.push([name ?? target.queryKeys[value.length % Math.max(1, target.queryKeys.length)] ?? 'q', value])
      const query = pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&') + draw.rawQuery
      const headers: Record<string, string> = { ...seed.headers, ...draw.headers }
      const hasBody = method !== 'GET' && method !== 'HEAD' && (seed.body !== undefined || draw.change.kind !== 'keep')
      if (hasBody && typeof draw.contentType === 'string') headers['content-type'] = draw.contentType
      return {
        method,
        target: `${path}${query ? `?${query}` : ''}`,
        headers,
        ...(hasBody ? { body: encode(mutate(seed.body, draw.change), draw.how) } : {}),
        route: `${target.method} ${target.pattern}`,
      }
    })
}

/** A short account of a request, for failure messages. */
export function describeRequest(request: FuzzRequest): string {
  const body = request.body ? new TextDecoder().decode(request.body.slice(0, 300)) : ''
  return `${request.method} ${request.target.slice(0, 300)} (route ${request.route})\n  headers: ${JSON.stringify(request.headers)}\n  body: ${body}`
}

/** Totals a fuzz run reports. */
export interface FuzzTotals {
  cases: number
  byStatus: Record<string, number>
  byRoute: Record<string, number>
}

/**
 * What must hold of every answer: a status below 500, a JSON D9 body for every
 * error (`error` and `message` strings), and what the OpenAPI document says of
 * the operation (status, required headers, body schema). Returns the problems.
 *
 * @example
 * const problems = judge(check, request, base, reply)
 */
export function judge(check: OpenApiCheck, request: FuzzRequest, base: string, reply: ObservedReply): string[] {
  const problems: string[] = []
  if (reply.status >= 500 || reply.status < 100) problems.push(`status ${reply.status}`)
  const bodyless = request.method === 'HEAD' || (request.method === 'OPTIONS' && reply.status === 204) || reply.status === 204
  if (!bodyless) {
    if (!/^application\/json/.test(reply.headers.get('content-type') ?? '')) problems.push(`content-type ${reply.headers.get('content-type')}`)
    if (reply.status >= 400) {
      const body = reply.body as { error?: unknown; message?: unknown } | undefined
      if (typeof body?.error !== 'string' || typeof body.message !== 'string') problems.push(`not a D9 error body: ${reply.text.slice(0, 200)}`)
      if (/^\s+at\s|\.(js|ts):\d+:\d+/m.test(reply.text)) problems.push('a stack trace in the body')
    }
  }
  const documented = check.problem(request.method, `${base}${request.target}`, reply)
  if (documented) problems.push(documented)
  return problems
}

/** Counts one answer into the totals. */
export function count(totals: FuzzTotals, request: FuzzRequest, status: number): void {
  totals.cases++
  totals.byStatus[status] = (totals.byStatus[status] ?? 0) + 1
  totals.byRoute[request.route] = (totals.byRoute[request.route] ?? 0) + 1
}

/** `true` for a request that may have changed the world (a write that succeeded). */
export function changedWorld(request: FuzzRequest, status: number): boolean {
  return status < 400 && request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS'
}

export { OpenApiCheck }
