/**
 * Property-based fuzzing of every route of every area and of the control API
 * (fast-check): valid requests from the routes' examples, then bent: other
 * methods, odd path segments and query strings, bodies with fields dropped,
 * retyped or added (`__proto__` included), huge numbers, deep nesting,
 * unicode, garbage and mislabelled bodies, odd headers. Every answer must be a
 * status below 500 with a JSON D9 body that the OpenAPI document describes, and
 * a refused request (4xx) or a read must leave the world byte-identical.
 *
 * In npm test: a few thousand seeded cases in-process (msw's getResponse over
 * sim.handlers). `npm run fuzz`: 100,000 against the real CLI server
 * (FUZZ_TARGET=http FUZZ_RUNS=100000), printing the totals.
 */
import fc from 'fast-check'
import { getResponse } from 'msw'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { errorResponse } from '../src/kernel/errors/error-response.js'
import { toFetchResponse } from '../src/kernel/http/fetch-adapter.js'
import { createSimulator, type Simulator } from '../src/index.js'
import { type CliServer, startCli } from './support/cli-server.js'
import { changedWorld, count, describeRequest, type FuzzRequest, type FuzzTotals, fuzzRequest, fuzzTargets, judge, OpenApiCheck, type WorldFacts } from './support/fuzz-cases.js'
import type { ObservedReply } from './support/openapi-check.js'
import { engineOf } from '../src/simulator/engine.js'

const OVER_HTTP = process.env.FUZZ_TARGET === 'http'
const RUNS = Number(process.env.FUZZ_RUNS ?? 2_500)
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123)
const CLOCK = '2026-01-01T00:00:00Z'

/** What the property talks to: the simulator in-process, or the CLI server over HTTP. */
interface Subject {
  base: string
  send(request: FuzzRequest): Promise<ObservedReply>
  /** The world as the state API exports it, as text. */
  state(): Promise<string>
  /** Back to the seeded default world after a write went through. */
  restore(request: FuzzRequest): Promise<void>
  /** Unexpected errors the simulator reported (bugs). */
  internalErrors(): string[]
  facts(): Promise<WorldFacts>
  document(): Promise<unknown>
  close(): Promise<void>
}

async function read(response: Response): Promise<ObservedReply> {
  const text = await response.text()
  let body: unknown = text
  if (/json/.test(response.headers.get('content-type') ?? '') && text !== '') body = JSON.parse(text)
  return { status: response.status, headers: response.headers, body, text }
}

async function inProcess(): Promise<Subject> {
  const errors: string[] = []
  const sim: Simulator = createSimulator({ seed: 1, clock: CLOCK, onInternalError: (error, request) => errors.push(`${request.method} ${request.url}: ${String(error)}`) })
  await sim.ready
  const base = 'http://fuzz.test'
  const ask = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const request = new Request(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return read((await getResponse(sim.handlers, request))!)
  }
  return {
    base,
    async send(request) {
      const built = new Request(`${base}${request.target}`, {
        method: request.method,
        headers: request.headers,
        ...(request.body ? { body: request.body as Uint8Array<ArrayBuffer> } : {}),
      })
      const response = (await getResponse(sim.handlers, built)) ?? toFetchResponse(errorResponse(engineOf(sim).dispatcher.notFound(built.method, new URL(built.url).pathname)))
      return read(response)
    },
    state: async () => JSON.stringify(sim.exportState()),
    async restore(request) {
      sim.clock.freeze()
      sim.clock.set(CLOCK)
      if (/^\/__mock\/(scenarios|state)/.test(request.target)) await sim.loadScenario('default')
      else await sim.reset()
    },
    internalErrors: () => errors,
    facts: () => worldFacts(ask),
    document: () => sim.openapi({ origin: base }),
    close: async () => undefined,
  }
}

async function overHttp(): Promise<Subject> {
  // Every origin allowed: the fuzzer's odd Origin headers probe the routes, not the origin policy (test/security.test.ts does).
  const server: CliServer = await startCli(['--seed', '1', '--clock', CLOCK, '--quiet', '--cors-origin', '*'])
  const base = server.url
  const ask = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    read(await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }))
  return {
    base,
    async send(request) {
      return read(
        await fetch(`${base}${request.target}`, {
          method: request.method,
          headers: request.headers,
          redirect: 'manual',
          signal: AbortSignal.timeout(30_000),
          ...(request.body ? { body: request.body as Uint8Array<ArrayBuffer> } : {}),
        }),
      )
    },
    state: async () => (await ask('GET', '/__mock/state')).text,
    async restore(request) {
      await ask('POST', '/__mock/clock', { mode: 'fixed', set: CLOCK })
      await ask('POST', /^\/__mock\/(scenarios|state)/.test(request.target) ? '/__mock/scenarios/default' : '/__mock/reset')
    },
    internalErrors: () => (server.stderr() ? [server.stderr()] : []),
    facts: () => worldFacts(ask),
    document: async () => (await ask('GET', '/__mock/openapi.json')).body,
    close: async () => void (await server.stop()),
  }
}

type Ask = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<ObservedReply>

async function worldFacts(ask: Ask): Promise<WorldFacts> {
  const state = (await ask('GET', '/__mock/state')).body as any
  const user = state.accounts.users.find((item: { status: string }) => item.status === 'active')
  const login = await ask('POST', '/general/auth/login', { username: user.username, password: 'Passw0rd!' })
  return {
    token: (login.body as { token: string }).token,
    userId: user.id,
    username: user.username,
    productId: state.core.products[0].id,
    particleId: state.quantum.pairs[0].particles[0].id,
    resourceId: String(state.general.resources[0].id),
    tokenId: state.ledger.tokens[0].token_id,
    validator: state.ledger.validators.find((item: { status: string }) => item.status === 'active').address,
    state,
  }
}

let subject: Subject
beforeAll(async () => {
  subject = OVER_HTTP ? await overHttp() : await inProcess()
})
afterAll(async () => {
  await subject?.close()
})

it(
  `${RUNS.toLocaleString('en')} fuzzed requests ${OVER_HTTP ? 'against the CLI server' : 'in-process'}: never a 5xx, always a documented JSON answer, a refused request changes nothing`,
  async () => {
    const check = new OpenApiCheck((await subject.document()) as Record<string, any>)
    // The route table of a simulator like the subject; seeded first, as the routes' examples read its world.
    const table = createSimulator({ seed: 1, clock: CLOCK })
    await table.ready
    const targets = await fuzzTargets(engineOf(table).dispatcher.mounts, await subject.facts())
    const totals: FuzzTotals = { cases: 0, byStatus: {}, byRoute: {} }
    let world = await subject.state()
    const started = performance.now()

    await fc.assert(
      fc.asyncProperty(fuzzRequest(targets), async (request) => {
        const reply = await subject.send(request)
        count(totals, request, reply.status)
        const problems = judge(check, request, subject.base, reply)
        if (changedWorld(request, reply.status)) {
          await subject.restore(request)
          world = await subject.state()
        } else {
          const after = await subject.state()
          if (after !== world) {
            problems.push(`the world changed after a ${reply.status}`)
            await subject.restore(request)
            world = await subject.state()
          }
        }
        problems.push(...subject.internalErrors().splice(0))
        if (problems.length > 0) throw new Error(`${describeRequest(request)}\n  answered ${reply.status}: ${reply.text.slice(0, 300)}\n  - ${problems.join('\n  - ')}`)
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: OVER_HTTP },
    )

    const seconds = (performance.now() - started) / 1000
    const statuses = Object.entries(totals.byStatus)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ')
    console.log(
      `fuzz (${OVER_HTTP ? 'CLI server' : 'in-process'}, seed ${SEED}): ${totals.cases.toLocaleString('en')} cases in ${seconds.toFixed(1)} s over ${Object.keys(totals.byRoute).length} routes; statuses ${statuses}; 0 failures`,
    )
    expect(Object.keys(totals.byRoute).length).toBe(targets.length)
    expect(totals.cases).toBe(RUNS)
  },
  OVER_HTTP ? 3_600_000 : 300_000,
)
