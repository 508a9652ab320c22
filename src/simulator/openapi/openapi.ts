import { exampleKey, type ExampleSet, type RecordedExample } from '../../kernel/openapi/examples.js'
import { buildOpenApiDocument, type DocumentedArea, type OpenApiDocument } from '../../kernel/openapi/document.js'
import type { AreaSecurity } from '../../kernel/openapi/security.js'
import type { Mount, RouteDefinition, RouteExample } from '../../kernel/routing/route.js'
import type { Dispatcher } from '../../kernel/routing/dispatcher.js'
import { CONTROL_AREA } from '../simulator.js'
import { recordShapeExamples } from './shape-examples.js'
import type { MountedArea, OpenApiOptions, Simulator } from '../simulator.js'

/** A simulator with its route table (the engine's view: src/simulator/engine.ts). */
type Routed = Simulator & { readonly dispatcher: Dispatcher }

/** The world examples are recorded in: the default scenario, seed 1, this frozen instant. */
export const EXAMPLE_CLOCK = '2026-01-01T00:00:00Z'

/** Version of the document; the interface itself carries its versions in its paths (Area A `/api/v1.2`). */
const DOCUMENT_VERSION = '1.0.0'

const DESCRIPTION = `A simulated backend for five API areas, each under its own prefix (\`/admin\`, \`/core\`, \`/quantum\`, \`/general\`, \`/ledger\`), and the control API under \`/__mock\`.

**Errors.** Every error is JSON \`{ "error": <code>, "message": <sentence>, ... }\` (\`ErrorBody\`). Each operation lists the statuses it answers and, for each, the codes and their bodies. On the areas, a fault rule (\`PUT /__mock/faults\`) or a \`Prefer: code=\` header may answer any status from 400 to 599 instead of the route: the \`4XX\` and \`5XX\` responses, and \`InjectedFault\` beside the listed ones.

**Answers of no operation.** The router answers 404 for a URL no route matches and 405 (with \`Allow\`) for a known path with another method; the HTTP server answers any URL 431 when the request line and headers are over 16 KiB, 408 when they or the whole request arrive too slowly, and 400 when the request is not HTTP. \`x-unrouted-responses\` describes the first three.

**Security.** Area operations need nothing but \`PUT /general/resources/{id}\`, which takes a token from \`POST /general/auth/login\` (\`bearerAuth\`). A server started with a control token (\`--control-token\`) answers every control operation but this document 401 without \`Authorization: Bearer <control token>\` (\`controlToken\`); without one, and in-process, no token is needed.

**Examples** are real answers of a simulator seeded with the \`default\` scenario, seed 1 and the clock frozen at ${EXAMPLE_CLOCK}.`

/** The name of the control token's scheme in `components.securitySchemes`. */
export const CONTROL_TOKEN_SCHEME = 'controlToken'

/**
 * What the HTTP server answers a control call without the right token
 * (src/node/gate/control-token.ts, which words its refusals from these): the control
 * API's 401 examples; test/openapi-http.test.ts holds them to the server's answers.
 */
export const CONTROL_TOKEN_REFUSALS = [
  {
    name: 'noControlToken',
    summary: 'A server with a control token, a call without it',
    body: { error: 'unauthorized', message: 'The control API needs "Authorization: Bearer <control token>" (the server was started with --control-token).' },
  },
  { name: 'wrongControlToken', summary: 'Another token', body: { error: 'invalid_token', message: 'The control token is wrong.' } },
] as const

/** The control token as the document declares it: optional, as only a server started with one asks for it. */
const CONTROL_TOKEN: AreaSecurity = {
  scheme: CONTROL_TOKEN_SCHEME,
  definition: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The control token of a server started with `--control-token` (or `MULTI_AREA_MOCK_CONTROL_TOKEN`), as `Authorization: Bearer <control token>`. Without one, and in-process or in the browser, the control API needs no token.',
  },
  optional: true,
  errors: [
    { code: 'unauthorized', description: 'The server was started with a control token and the request has no `Authorization: Bearer` header.' },
    { code: 'invalid_token', description: 'The server was started with a control token and the request has another one.' },
  ],
  // The document and the reference page are open, so a client generator can always read them.
  exempt: ['getOpenApi'],
}

/**
 * The OpenAPI document of a simulator's route table with the given examples.
 *
 * @example
 * describeSimulator(sim, await recordExamples(scratch), { origin: 'http://127.0.0.1:4000' })
 */
export function describeSimulator(sim: Pick<Routed, 'areas' | 'dispatcher'>, examples: ExampleSet, options: OpenApiOptions = {}): OpenApiDocument {
  const areas: Record<string, DocumentedArea> = {}
  const absolute = (url: string) => (url.startsWith('/') && options.origin ? `${options.origin}${url === '/' ? '' : url}` : url)
  for (const area of sim.areas) {
    const urls = area.baseUrls.map((url) => `\`${absolute(url)}\``).join(', ')
    areas[area.id] = { tag: area.id, description: `${areaTitle(area)}. Base URL${area.baseUrls.length > 1 ? 's' : ''}: ${urls}.`, faults: true }
  }
  areas[CONTROL_AREA] = {
    tag: CONTROL_AREA,
    description: `The control API: reset, scenarios, clock, state, request journal, fault rules, isolated worlds, live events and this document. Base URL: \`${absolute('/__mock')}\`.`,
    faults: false,
    security: CONTROL_TOKEN,
    anyWorld: anyWorldRoutes(sim.dispatcher.mounts, examples),
    responsePrefix: 'Control',
  }
  return buildOpenApiDocument({
    info: { title: 'multi-area-mock', version: DOCUMENT_VERSION, description: DESCRIPTION, license: { name: 'MIT', identifier: 'MIT' } },
    mounts: sim.dispatcher.mounts,
    areas,
    examples: withControlTokenRefusals(sim.dispatcher.mounts, examples),
    ...(options.origin !== undefined ? { origin: options.origin } : {}),
    ...(options.area !== undefined ? { area: options.area } : {}),
  })
}

/** An area's letter and title, e.g. `Area A: User administration`: the description of its tag. */
export function areaTitle(area: Pick<MountedArea, 'letter' | 'title'>): string {
  return `Area ${area.letter}: ${area.title}`
}

/** Control routes that answered the unknown-world example with something else than its 404: they answer any world (`/__mock/worlds`). */
function anyWorldRoutes(mounts: readonly Mount[], examples: ExampleSet): string[] {
  return mounts
    .filter((mount) => mount.area === CONTROL_AREA)
    .flatMap((mount) => mount.routes)
    .filter((route) => {
      const recorded = examples.get(exampleKey(CONTROL_AREA, route))
      return recorded !== undefined && !recorded.some((example) => example.name === 'unknownWorld')
    })
    .flatMap((route) => (route.operationId ? [route.operationId] : []))
}

/** The examples, plus the control token's 401s on every control route it guards. */
function withControlTokenRefusals(mounts: readonly Mount[], examples: ExampleSet): ExampleSet {
  const all = new Map(examples)
  for (const route of mounts.filter((mount) => mount.area === CONTROL_AREA).flatMap((mount) => mount.routes)) {
    if (route.operationId && CONTROL_TOKEN.exempt?.includes(route.operationId)) continue
    const key = exampleKey(CONTROL_AREA, route)
    const refusals = CONTROL_TOKEN_REFUSALS.map((refusal): RecordedExample => ({ ...refusal, request: {}, status: 401, shape: true }))
    all.set(key, [...(examples.get(key) ?? []), ...refusals])
  }
  return all
}

/**
 * Sends every route's example requests to `scratch` (a simulator of its own,
 * seeded with the default scenario) and records the answers, each on the world
 * as seeded, so one example's writes never show in another's.
 *
 * @example
 * const examples = await recordExamples(createSimulator({ seed: 1, clock: EXAMPLE_CLOCK }))
 */
export async function recordExamples(scratch: Routed): Promise<ExampleSet> {
  await scratch.ready
  const snapshot = scratch.snapshot()
  const clock = scratch.clock.save()
  const rules = scratch.faults.list().map(({ fired: _fired, ...rule }) => rule)
  // Not `reset()`: an example loads another scenario, which reset would return to.
  // Fault rules and the journal are not part of the world's data: put back apart, so a
  // control example's rules never fail an area example.
  const fresh = async () => {
    await scratch.restore(snapshot)
    scratch.clock.restore(clock)
    scratch.faults.set(rules)
    scratch.journal.clear()
  }
  const recorded = new Map<string, RecordedExample[]>()
  // The world is as seeded at the top of each route: every example is sent on it and the world put back after it.
  await fresh()
  for (const mount of scratch.dispatcher.mounts) {
    for (const route of mount.routes) {
      const requests = route.examples ? await route.examples() : []
      const list: RecordedExample[] = []
      for (const [index, example] of requests.entries()) {
        const response = await scratch.fetch(exampleRequest(mount, route, example))!
        const text = await response.text()
        list.push({
          name: example.name ?? (index === 0 ? 'example' : `example${index + 1}`),
          ...(example.summary ? { summary: example.summary } : {}),
          request: example,
          status: response.status,
          body: text === '' ? undefined : JSON.parse(text),
        })
        await fresh()
      }
      // Built on a request the route accepts, so that only the error shown differs. They change no data; the journal keeps them.
      const accepted = list.filter((example) => example.status < 400).map((example) => example.request)
      list.push(...(await recordShapeExamples(scratch, mount, route, accepted)))
      scratch.journal.clear()
      recorded.set(exampleKey(mount.area, route), list)
    }
  }
  return recorded
}

function exampleRequest(mount: Mount, route: RouteDefinition, example: RouteExample): Request {
  const path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(example.params?.[name] ?? name))
  const query = example.query ? `?${new URLSearchParams(Object.entries(example.query).filter((entry): entry is [string, string] => entry[1] !== undefined))}` : ''
  const headers = new Headers(example.headers)
  if (example.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json')
  return new Request(`${mount.origin ?? 'http://examples.test'}${mount.prefix}${path}${query}`, {
    method: route.method,
    headers,
    ...(example.body !== undefined ? { body: JSON.stringify(example.body) } : {}),
  })
}
