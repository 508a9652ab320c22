import { afterAll, describe, expect, it } from 'vitest'
import { createSimulator, DEFAULT_PASSWORD } from '../src/index.js'
import { EXAMPLE_CLOCK } from '../src/simulator/openapi/openapi.js'
import { OpenApiCheck } from './support/openapi-check.js'
import { type Operation, type RequestCase, RequestCases } from './support/request-cases.js'

/**
 * The OpenAPI document is a contract a client can trust: for every operation,
 * requests made from the document alone (test/support/request-cases.ts) are
 * sent to a simulator in-process. A request the document calls valid must be
 * accepted; one it calls invalid must be refused with a 4xx JSON `{error,
 * message}`; every answer must match the document for its status (ajv).
 *
 * "Accepted" means: a 2xx; or an error about the world rather than the
 * request's form, which the document lists for the operation (404 for an id
 * that names nothing, 409 for a taken username, 401 for wrong credentials...);
 * or a 400 for one of the rules JSON Schema cannot say, which the document
 * says in words (`PROSE_RULES` below, each with where it is written).
 */

const BASE = 'http://conformance.test'
/** Fixed, so a run is repeatable; `CONFORMANCE_SEED=n` explores others. */
const SEED = Number(process.env.CONFORMANCE_SEED ?? 21)
const VALID_PER_OPERATION = 10
const INVALID_PER_OPERATION = 60
const EDGES_PER_OPERATION = 40

/** Codes that say the request's form is wrong: never the answer to a valid request, except for `PROSE_RULES`. */
const FORM_CODES = new Set(['validation_failed', 'invalid_json', 'unsupported_media_type', 'payload_too_large'])

/** A rule JSON Schema cannot say, which the document says in words. */
interface ProseRule {
  /** The 400 detail (`path: message`) a request the schema calls valid may get for it. */
  detail: RegExp
  /** Where the document says it: matched against the operation (its descriptions and schemas, references followed). */
  said: RegExp
}

/** What the `Instant` schema says of every instant, and what a request the pattern lets through may still break. */
const INSTANT_RANGE = { detail: /must fall within the years 0000 to 9999 in UTC$/, said: /within the years 0000 to 9999 in UTC/ }
/** Two decimals of a price: in words, since validators evaluate `multipleOf: 0.01` in floating point. */
const PRICE_DECIMALS = { detail: /price: must have at most 2 decimals$/, said: /at most 2 decimals/ }
/** The rules across records of scenarios and state, in their descriptions. */
const CROSS_REFERENCES = {
  detail:
    /duplicate|is not one of the validators|superposition|is required once collapsed|must be at least the number of points|in (spin|polarization) mode|EIP-55 checksum|identical one has no signature/,
  said: /records refer to each other.*unique in their collection.*names a listed validator.*superposition or neither.*at least its kept `points`/,
}

/**
 * 400 details a valid request may still get: rules across fields or against
 * the world, which the operation's descriptions state in words (a test below
 * holds each `said` to the document).
 */
const PROSE_RULES: Record<string, ProseRule[]> = {
  coreUpdateProduct: [{ detail: /^id: is immutable/, said: /give the path's id/ }, PRICE_DECIMALS],
  ledgerDelegateStake: [{ detail: /EIP-55 checksum/, said: /EIP-55 checksum/ }],
  controlAddFault: [{ detail: /minimum\) must not exceed/, said: /min ≤ max/ }],
  controlReplaceFaults: [{ detail: /minimum\) must not exceed/, said: /min ≤ max/ }],
  controlMoveClock: [{ detail: /^advance: would move the clock out of the years 0000 to 9999$/, said: /would move the clock out of the years 0000 to 9999/ }, INSTANT_RANGE],
  // A scenario name is looked up when the world is made; a scenario object's rules across records.
  controlCreateWorld: [
    { detail: /^scenario: Unknown scenario/, said: /unknown scenario name/i },
    { detail: /^scenario: Invalid clock/, said: INSTANT_RANGE.said },
    { detail: /^scenario\./, said: CROSS_REFERENCES.said },
    INSTANT_RANGE,
  ],
  controlReplaceState: [CROSS_REFERENCES, PRICE_DECIMALS, INSTANT_RANGE],
}

/** Default zod messages, which must never reach a user. */
const RAW_ZOD = /^Invalid input|expected \w+, received|^Invalid (ISO|string|number|option|email|literal)|^Too (big|small)|^Unrecognized key|^Required$/

const sim = createSimulator({ seed: 1, clock: EXAMPLE_CLOCK })
await sim.ready
const doc = await sim.openapi({ origin: BASE })
const check = new OpenApiCheck(doc)
const cases = new RequestCases(doc)
const operations = cases.operations()
const snapshot = sim.snapshot()
const clock = sim.clock.save()
const counts = { operations: operations.length, edges: 0, valid: 0, invalid: 0, accepted2xx: 0, acceptedDomain: 0 }
const started = Date.now()

/** Back to the seeded world: after a control request, so faults, clock or state it set never reach the next one. */
async function fresh(): Promise<void> {
  await sim.restore(snapshot)
  sim.clock.restore(clock)
  sim.faults.clear()
  sim.journal.clear()
  for (const world of sim.worlds.list()) sim.worlds.delete(world.id)
}

async function bearer(): Promise<string> {
  const username = sim.db.users.findFirst((query) => query.where({ status: 'active' }))!.username
  const response = await sim.fetch(
    new Request(`${BASE}/general/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: DEFAULT_PASSWORD }) }),
  )!
  return ((await response.json()) as { token: string }).token
}

interface Answer {
  status: number
  body: any
  problem: string | undefined
}

async function send(operation: Operation, request: RequestCase): Promise<Answer> {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(request.path[name] ?? name))
  const query = new URLSearchParams(request.query).toString()
  const url = `${BASE}${path}${query ? `?${query}` : ''}`
  const headers = new Headers()
  // The Area D token where the operation asks for it (the control token is the HTTP server's, and optional).
  if (operation.op.security?.some((requirement: Record<string, unknown>) => 'bearerAuth' in requirement)) headers.set('authorization', `Bearer ${await bearer()}`)
  let body: string | undefined
  if (request.raw) {
    headers.set('content-type', request.raw.contentType)
    body = request.raw.text
  } else if (request.body !== undefined) {
    headers.set('content-type', 'application/json')
    body = JSON.stringify(request.body)
  }
  const response = await sim.fetch(new Request(url, { method: operation.method, headers, ...(body !== undefined ? { body } : {}) }))
  if (!response) throw new Error(`No route answered ${operation.method} ${url}`)
  // An event stream never ends: its first event (`hello`) is what this test reads of it.
  const text = (response.headers.get('content-type') ?? '').startsWith('text/event-stream') ? await firstChunk(response) : await response.text()
  const json = (response.headers.get('content-type') ?? '').includes('json') && text !== '' ? JSON.parse(text) : text
  const problem = check.problem(operation.method, url, { status: response.status, headers: response.headers, body: json, text })
  if (operation.path.startsWith('/__mock/') && operation.method !== 'GET') await fresh()
  return { status: response.status, body: json, problem }
}

async function firstChunk(response: Response): Promise<string> {
  const reader = response.body!.getReader()
  const { value } = await reader.read()
  await reader.cancel()
  return new TextDecoder().decode(value)
}

/** An operation as text, each schema it refers to written in place once (so a component's description counts). */
function documentText(node: unknown): string {
  const seen = new Set<string>()
  return JSON.stringify(node, (_key, value) => {
    if (typeof value?.$ref !== 'string' || seen.has(value.$ref)) return value
    seen.add(value.$ref)
    return value.$ref
      .slice(2)
      .split('/')
      .reduce((at: any, key: string) => at?.[key], doc)
  })
}

function describeRequest(request: RequestCase): string {
  return JSON.stringify({ path: request.path, query: request.query, body: request.raw ? request.raw.text.slice(0, 80) : request.body }).slice(0, 300)
}

/** Why a valid request's answer is not an acceptance, or `undefined`. */
function notAccepted(operation: Operation, answer: Answer): string | undefined {
  if (answer.status < 300) return undefined
  const code = answer.body?.error
  if (answer.status >= 400 && answer.status < 500 && !FORM_CODES.has(code)) return undefined
  const details: Array<{ path: string; message: string }> = answer.body?.details ?? []
  const prose = (detail: { path: string; message: string }) => (PROSE_RULES[operation.id] ?? []).some((rule) => rule.detail.test(`${detail.path}: ${detail.message}`))
  if (answer.status === 400 && details.length > 0 && details.every(prose)) return undefined
  return `answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 400)} ${details
    .filter((detail) => !prose(detail))
    .map((detail) => `${detail.path}: ${detail.message}`)
    .join('; ')}`
}

/** `true` when a 400's details name the broken part (or a field around it): `body.items[0].price: maximum` → `items.0.price`. */
function pointsAt(label: string, answer: Answer): boolean {
  if (answer.body?.error !== 'validation_failed') return true
  const where = label.split(': ')[0]!
  if (!/^(body|query|path)\b/.test(where)) return true
  const path = where
    .replace(/^body\.?/, '')
    .replace(/^path\./, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/^\./, '')
  const details: Array<{ path: string }> = answer.body.details ?? []
  return details.some((detail) => detail.path === path || path.startsWith(detail.path === '' ? '' : `${detail.path}.`) || detail.path.startsWith(path === '' ? '' : `${path}.`))
}

function rawMessages(answer: Answer): string[] {
  const details: Array<{ path: string; message: string }> = answer.body?.details ?? []
  return details.filter((detail) => RAW_ZOD.test(detail.message)).map((detail) => `${detail.path}: ${detail.message}`)
}

describe('requests made from the OpenAPI document', () => {
  afterAll(() => {
    // Reported for the record (docs/openapi.md quotes them).
    console.log(
      `openapi-conformance: ${counts.operations} operations, ${counts.valid} valid requests (${counts.edges} at the edges; ${counts.accepted2xx} 2xx, ${counts.acceptedDomain} domain 4xx), ${counts.invalid} invalid requests, ${Date.now() - started} ms`,
    )
  })

  it('says in words every rule a valid request may still be refused for', () => {
    const unsaid = Object.entries(PROSE_RULES).flatMap(([id, rules]) => {
      const operation = operations.find((entry) => entry.id === id)
      if (!operation) return [`${id}: no such operation`]
      const text = documentText(operation.op)
      return rules.filter((rule) => !rule.said.test(text)).map((rule) => `${id}: ${rule.said}`)
    })
    expect(unsaid).toEqual([])
  })

  it.each(operations.map((operation) => [operation.id, operation] as const))(
    '%s: valid ones are accepted, invalid ones refused with a 4xx JSON error, every answer as documented',
    async (_, operation) => {
      const failures: string[] = []
      const valid = cases.valid(operation, operation.id === 'controlGetOpenApi' ? 2 : VALID_PER_OPERATION, SEED)
      expect(valid.length, 'valid requests generated').toBeGreaterThan(0)
      const edges = cases.edges(operation, valid[0]!, EDGES_PER_OPERATION)
      counts.edges += edges.length
      const accepted: RequestCase[] = []
      for (const request of [...valid, ...edges]) {
        const answer = await send(operation, request)
        if (answer.status < 300 && !request.label.includes(':')) accepted.push(request)
        counts.valid++
        if (answer.status < 300) counts.accepted2xx++
        else counts.acceptedDomain++
        const refused = notAccepted(operation, answer)
        if (refused) failures.push(`valid (${request.label}) ${describeRequest(request)} ${refused}`)
        if (answer.problem) failures.push(`valid ${describeRequest(request)}: ${answer.problem}`)
        for (const raw of rawMessages(answer)) failures.push(`raw zod message: ${raw}`)
      }
      // Broken from accepted requests, so a refusal is for what was broken, not an unknown id: the
      // first (required fields only) and the largest (most optional fields to break).
      const largest = accepted.reduce<RequestCase | undefined>(
        (best, request) => (!best || JSON.stringify(request.body ?? request.query).length > JSON.stringify(best.body ?? best.query).length ? request : best),
        undefined,
      )
      const bases = [accepted[0] ?? valid[0]!, ...(largest && largest !== accepted[0] ? [largest] : [])]
      const seen = new Set<string>()
      const invalid = bases.flatMap((base) => cases.invalid(operation, base, INVALID_PER_OPERATION)).filter((request) => !seen.has(request.label) && seen.add(request.label))
      // Any non-empty text is a valid id (`/users/{userId}`), so some operations take no invalid request at all.
      const constrained =
        Boolean(operation.op.requestBody) ||
        (operation.op.parameters ?? []).some((parameter: any) => Object.keys(parameter.schema).some((key) => !['type', 'minLength', 'description'].includes(key)))
      if (constrained) expect(invalid.length, 'invalid requests generated').toBeGreaterThan(0)
      for (const request of invalid) {
        const answer = await send(operation, request)
        counts.invalid++
        // Refused for its form (400, 413, 415), not for something else (a username taken by the valid request before it).
        const refused = answer.status >= 400 && answer.status < 500 && FORM_CODES.has(answer.body?.error) && typeof answer.body?.message === 'string'
        if (!refused) failures.push(`invalid (${request.label}) ${describeRequest(request)} answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`)
        else if (!pointsAt(request.label, answer)) failures.push(`invalid (${request.label}): no detail names the broken field: ${JSON.stringify(answer.body.details)}`)
        if (answer.problem) failures.push(`invalid (${request.label}): ${answer.problem}`)
        for (const raw of rawMessages(answer)) failures.push(`raw zod message (${request.label}): ${raw}`)
      }
      expect(failures).toEqual([])
    },
  )
})
