import { CONTROL_TOKEN_CODES } from '../kernel/errors/error-codes.js'
import { exampleKey, type ExampleSet, type RecordedExample } from '../kernel/openapi/examples.js'
import { buildOpenApiDocument, type DocumentedArea, type OpenApiDocument } from '../kernel/openapi/document.js'
import type { Mount, RouteDefinition, RouteExample } from '../kernel/routing/route.js'
import type { Dispatcher } from '../kernel/routing/dispatcher.js'
import type { MountedArea, OpenApiOptions, Simulator } from './simulator.js'

/** A simulator with its route table (the engine's view: src/simulator/engine.ts). */
type Routed = Simulator & { readonly dispatcher: Dispatcher }

/** The world examples are recorded in: the default scenario, seed 1, this frozen instant (D24). */
export const EXAMPLE_CLOCK = '2026-01-01T00:00:00Z'

/** Version of the document; the interface itself carries its versions in its paths (Area A `/api/v1.2`). */
const DOCUMENT_VERSION = '1.0.0'

const DESCRIPTION = `A simulated backend for five API areas: each area under its own prefix (D1), the control API under \`/__mock\` (D26).

Every error is JSON \`{ "error": <code>, "message": <sentence>, ... }\` (D9). Besides the statuses of each operation, the router answers
\`components.responses.UnknownRoute\` for a URL no route matches and \`components.responses.MethodNotAllowed\` (with \`Allow\`) for a known path
with another method; the HTTP server answers any URL \`components.responses.HeadersTooLarge\` (431) when the request line and
headers are over 16 KiB, \`request_timeout\` (408) when they or the whole request arrive too slowly, and \`bad_request\` (400) when the
request is not HTTP. A server started with a control token answers every control route but this document and \`/__mock/docs\` 401
(\`unauthorized\`, \`invalid_token\`) without \`Authorization: Bearer <control token>\`.

The examples are real answers of a simulator seeded with the \`default\` scenario, seed 1 and the clock frozen at ${EXAMPLE_CLOCK}.`

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
    areas[area.id] = { tag: areaTag(area), description: `Base URL${area.baseUrls.length > 1 ? 's' : ''}: ${urls}`, faults: true }
  }
  // 401 only from an HTTP server started with a control token (`--control-token`); never for this document itself.
  areas.control = {
    tag: 'Control API',
    description: 'Reset, scenarios, clock, state, request journal, fault rules, isolated worlds and this document (D26).',
    faults: false,
    codes: CONTROL_TOKEN_CODES,
  }
  return buildOpenApiDocument({
    info: { title: 'multi-area-mock', version: DOCUMENT_VERSION, description: DESCRIPTION },
    mounts: sim.dispatcher.mounts,
    areas,
    examples,
    ...(options.origin !== undefined ? { origin: options.origin } : {}),
    ...(options.area !== undefined ? { area: options.area } : {}),
  })
}

/** The tag of an area's operations, e.g. `Area A: User administration`. */
export function areaTag(area: Pick<MountedArea, 'letter' | 'title'>): string {
  return `Area ${area.letter}: ${area.title}`
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
  for (const mount of scratch.dispatcher.mounts) {
    for (const route of mount.routes) {
      if (!route.examples) continue
      await fresh()
      const list: RecordedExample[] = []
      for (const [index, example] of (await route.examples()).entries()) {
        await fresh()
        const response = await scratch.fetch(exampleRequest(mount, route, example))!
        const text = await response.text()
        list.push({
          name: example.name ?? (index === 0 ? 'example' : `example${index + 1}`),
          ...(example.summary ? { summary: example.summary } : {}),
          request: example,
          status: response.status,
          body: text === '' ? undefined : JSON.parse(text),
        })
      }
      recorded.set(exampleKey(mount.area, route), list)
    }
  }
  await fresh()
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
