import { ERROR_CODES, type ErrorCode, FAULT_CODES } from '../../kernel/errors/error-codes.js'
import { errorResponse } from '../../kernel/errors/error-response.js'
import type { RecordedExample } from '../../kernel/openapi/examples.js'
import type { Mount, RouteDefinition, RouteExample } from '../../kernel/routing/route.js'
import type { FaultRuleInput } from '../faults/fault-rule.js'
import { CONTROL_AREA } from '../simulator.js'
import type { Simulator } from '../simulator.js'
import { WORLD_HEADER } from '../worlds/worlds.js'

/** The world the unknown-world example names. */
export const NO_SUCH_WORLD = 'no-such-world'

/** Statuses an injected fault shows in the `4XX` and `5XX` ranges: ones no route documents. */
const RANGE_FAULT_STATUSES = [418, 501] as const

/** A body size no limit reaches (`MAX_BODY_LIMIT` is 256 MiB): declared, never sent. */
const HUGE_BODY = String(2 ** 30)

/** One request that shows an error of a route's shape, and the answer that shows it. */
interface ShapeRequest {
  name: string
  summary: string
  /** Changes to the route's first example request. */
  headers?: Record<string, string | null>
  body?: string | null
  /** A fault rule (a status) in force while it is sent. */
  fault?: number
  /** What the answer must be to show the error; anything else is not recorded. */
  expect: { status: number; code?: ErrorCode; world?: string }
}

/**
 * Examples of the errors that follow from a route's shape rather than from
 * its handler: an unknown world, a body that is empty, not JSON, declared as
 * something else or too large, a missing or malformed Bearer token, each
 * injected fault status, and a bug. They are real answers of `scratch` to
 * requests built from the route's first example (so its params, query and
 * token get past the checks that come first); one whose answer is not the
 * error it shows is left out (a route that answers any world has no
 * unknown-world example). The bug is what `errorResponse` makes of any
 * thrown error, as no request can make one.
 *
 * @example
 * const examples = await recordShapeExamples(scratch, mount, route, await route.examples?.() ?? [])
 */
export async function recordShapeExamples(
  scratch: Pick<Simulator, 'fetch' | 'faults'>,
  mount: Mount,
  route: RouteDefinition,
  examples: readonly RouteExample[],
): Promise<RecordedExample[]> {
  const base = examples[0] ?? {}
  const rules = scratch.faults.list().map(({ fired: _fired, ...rule }) => rule)
  const recorded: RecordedExample[] = []
  for (const shape of shapeRequests(mount, route)) {
    if (shape.fault !== undefined) setFault(scratch, mount, route, shape.fault)
    try {
      const response = await scratch.fetch(shapeRequest(mount, route, base, shape))!
      const text = await response.text()
      const body: unknown = text === '' ? undefined : JSON.parse(text)
      const { error, world } = (body ?? {}) as { error?: unknown; world?: unknown }
      const expected = shape.expect
      if (response.status !== expected.status || (expected.code !== undefined && error !== expected.code) || (expected.world !== undefined && world !== expected.world)) continue
      recorded.push({ name: shape.name, summary: shape.summary, request: base, status: response.status, body, shape: true })
    } finally {
      if (shape.fault !== undefined) scratch.faults.set(rules)
    }
  }
  const bug = errorResponse(new Error('A bug.'))
  recorded.push({ name: 'bug', summary: 'A bug in the simulator', request: base, status: bug.status, body: JSON.parse(bug.body!), shape: true })
  return recorded
}

function shapeRequests(mount: Mount, route: RouteDefinition): ShapeRequest[] {
  const shapes: ShapeRequest[] = [
    {
      name: 'unknownWorld',
      summary: `An \`${WORLD_HEADER}\` header naming no world`,
      headers: { [WORLD_HEADER]: NO_SUCH_WORLD },
      expect: { status: 404, code: 'not_found', world: NO_SUCH_WORLD },
    },
  ]
  const json = { 'content-type': 'application/json' }
  if (route.body) {
    shapes.push(
      { name: 'emptyBody', summary: 'No body', headers: json, body: '', expect: { status: 400, code: 'validation_failed' } },
      { name: 'invalidJson', summary: 'A body that is not JSON', headers: json, body: '{"unfinished": ', expect: { status: 400, code: 'invalid_json' } },
      {
        name: 'tooLarge',
        summary: 'A body over the size limit',
        headers: { ...json, 'content-length': HUGE_BODY },
        body: '{}',
        expect: { status: 413, code: 'payload_too_large' },
      },
    )
  }
  if (route.body || route.method === 'POST') {
    shapes.push({
      name: 'notJson',
      summary: 'A body declared as text',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
      expect: { status: 415, code: 'unsupported_media_type' },
    })
  }
  if (route.security?.scheme === 'bearer') {
    shapes.push(
      { name: 'noToken', summary: 'No `Authorization` header', headers: { authorization: null }, expect: { status: 401, code: 'unauthorized' } },
      { name: 'badToken', summary: 'A token that is not a JWT', headers: { authorization: 'Bearer not-a-token' }, expect: { status: 401, code: 'invalid_token' } },
    )
  }
  if (mount.area !== CONTROL_AREA) {
    const statuses = [...new Set(FAULT_CODES.map((code) => ERROR_CODES[code].status)), ...RANGE_FAULT_STATUSES]
    for (const status of statuses) {
      shapes.push({ name: `injected${status}`, summary: `A fault rule answering ${status}`, fault: status, expect: { status } })
    }
  }
  return shapes
}

/** Puts one rule in force, alone, that answers `status` (400-599) on this route. */
function setFault(scratch: Pick<Simulator, 'faults'>, mount: Mount, route: RouteDefinition, status: number): void {
  scratch.faults.set([{ area: mount.area as FaultRuleInput['area'], method: route.method, route: route.path, status }])
}

function shapeRequest(mount: Mount, route: RouteDefinition, base: RouteExample, shape: ShapeRequest): Request {
  const path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(base.params?.[name] ?? name))
  const query = base.query ? `?${new URLSearchParams(Object.entries(base.query).filter((entry): entry is [string, string] => entry[1] !== undefined))}` : ''
  const headers = new Headers(base.headers)
  for (const [name, value] of Object.entries(shape.headers ?? {})) {
    if (value === null) headers.delete(name)
    else headers.set(name, value)
  }
  let body = shape.body
  if (body === undefined && base.body !== undefined && !shape.headers?.['content-type']) {
    body = JSON.stringify(base.body)
    headers.set('content-type', 'application/json')
  }
  return new Request(`${mount.origin ?? 'http://examples.test'}${mount.prefix}${path}${query}`, {
    method: route.method,
    headers,
    ...(body !== undefined && body !== null && route.method !== 'GET' ? { body } : {}),
  })
}
