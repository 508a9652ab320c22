import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsPlugin from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import type { OpenApiDocument } from '../../kernel/openapi/document.js'
import { exampleKey } from '../../kernel/openapi/examples.js'
import { createSimulator, type Simulator, type SimulatorOptions } from '../create-simulator.js'
import { EXAMPLE_CLOCK, recordExamples } from './openapi.js'
import { engineOf } from '../engine.js'

const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']

/** The mount set-ups the document must follow: default prefixes, a root mount, another origin, one area. */
const setups: Record<string, SimulatorOptions> = {
  default: {},
  'root core': { root: ['core'] },
  'admin on its own origin': { baseUrls: { admin: 'https://admin.example.com/v0' }, root: ['admin'] },
  'admin only': { areas: ['admin'] },
}

/** `METHOD origin+path` of every route of every mount, straight from the dispatcher's route table. */
function routeTable(sim: Simulator): string[] {
  return engineOf(sim)
    .dispatcher.mounts.flatMap((mount) => mount.routes.map((route) => `${route.method} ${mount.origin ?? ''}${mount.prefix}${route.path}`))
    .sort()
}

/** `METHOD origin+path` of every operation of the document. */
function documentedOperations(doc: OpenApiDocument): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => {
      const origin = (item.servers as Array<{ url: string }> | undefined)?.[0]?.url ?? ''
      return METHODS.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${origin}${path}`)
    })
    .sort()
}

function operations(doc: OpenApiDocument): Array<{ path: string; method: string; operation: any }> {
  return Object.entries(doc.paths).flatMap(([path, item]) => METHODS.filter((method) => item[method]).map((method) => ({ path, method, operation: item[method] })))
}

describe('the OpenAPI document', () => {
  const docs = new Map<string, Promise<{ sim: Simulator; doc: OpenApiDocument }>>()
  const documentFor = (name: string) => {
    if (!docs.has(name)) {
      const sim = createSimulator({ ...setups[name], scenario: 'empty' })
      docs.set(
        name,
        sim.openapi({ origin: 'http://127.0.0.1:4000' }).then((doc) => ({ sim, doc })),
      )
    }
    return docs.get(name)!
  }

  it.each(Object.keys(setups))('is valid OpenAPI 3.1 (%s)', async (name) => {
    const { sim, doc } = await documentFor(name)
    const validator = new Validator()
    expect(await validator.validate(structuredClone(doc) as never)).toEqual({ valid: true })
    expect(validator.version).toBe('3.1')
    for (const area of sim.areas) {
      expect(await new Validator().validate((await sim.openapi({ area: area.id })) as never), area.id).toEqual({ valid: true })
    }
  })

  it.each(Object.keys(setups))('has one operation per route of the route table, and nothing else (%s)', async (name) => {
    const { sim, doc } = await documentFor(name)
    expect(documentedOperations(doc)).toEqual(routeTable(sim))
    const ids = operations(doc).map(({ operation }) => operation.operationId)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('documents every route next to its handler (operationId and responses)', async () => {
    const { doc } = await documentFor('default')
    const undocumented = operations(doc)
      .filter(({ operation }) => operation['x-undocumented'])
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`)
    // To document one: give the route `operationId`, `responses` and, as it applies, `params`,
    // `query`, `body`, `errors`, `examples` (src/kernel/routing/route.ts, docs/internals.md, "The OpenAPI document").
    expect(undocumented, 'routes without documentation').toEqual([])
  })

  it('shows the bounds of the list parameters and a short tag per area, its title in the description', async () => {
    const { doc } = await documentFor('default')
    const parameters = (doc.paths['/admin/api/v1.2/users']!.get as any).parameters
    expect(parameters.find((parameter: any) => parameter.name === 'limit')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    })
    expect(parameters.find((parameter: any) => parameter.name === 'page').schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 })
    expect((doc.paths['/core/users']!.get as any).parameters.find((parameter: any) => parameter.name === 'offset').schema).toMatchObject({ type: 'integer', minimum: 0 })
    const { sim } = await documentFor('default')
    expect(doc.tags.map((tag) => tag.name)).toEqual([...sim.areas.map((area) => area.id), 'control'])
    expect(doc.tags[0]).toEqual({ name: 'admin', description: 'Area A: User administration. Base URL: `http://127.0.0.1:4000/admin`.' })
  })

  it('carries examples that match their own schemas, requests and answers alike', async () => {
    const { doc } = await documentFor('default')
    const ajv = new Ajv2020({ allErrors: true, strict: false, multipleOfPrecision: 9 })
    addFormats(ajv)
    let checked = 0
    const visit = (node: any, where: string) => {
      if (node === null || typeof node !== 'object') return
      const json = node['application/json']
      if (json?.examples) {
        const validate = ajv.compile({ ...json.schema, components: doc.components })
        for (const [name, example] of Object.entries<any>(json.examples)) {
          expect(validate(example.value), `${where} example ${name}: ${ajv.errorsText(validate.errors)}`).toBe(true)
          checked++
        }
      }
      for (const [key, value] of Object.entries(node)) visit(value, `${where}/${key}`)
    }
    visit(doc.paths, '')
    expect(checked).toBeGreaterThan(20)
  })

  it('records examples whose statuses the operations document', async () => {
    const sim = createSimulator({ scenario: 'empty' })
    const doc = await sim.openapi()
    const examples = await recordExamples(engineOf(createSimulator({ clock: EXAMPLE_CLOCK })))
    for (const mount of engineOf(sim).dispatcher.mounts) {
      for (const route of mount.routes) {
        const operation = doc.paths[`${mount.prefix}${route.path}`]![route.method.toLowerCase()] as any
        for (const example of examples.get(exampleKey(mount.area, route)) ?? []) {
          // A status the operation does not list is one of an injected fault's, in its range.
          const key = String(example.status) in operation.responses ? String(example.status) : `${String(example.status)[0]}XX`
          expect(Object.keys(operation.responses), `${operation.operationId} example ${example.name}`).toContain(key)
        }
      }
    }
    const getUser = examples.get('admin GET /api/v1.2/users/{userId}')!
    expect(getUser.filter((example) => !example.shape).map((example) => [example.name, example.status])).toEqual([
      ['example', 200],
      ['unknown', 404],
    ])
    // The errors of its shape: an unknown world, each injected fault status (418 and 501 in no list), a bug.
    expect(getUser.filter((example) => example.shape).map((example) => [example.name, example.status])).toEqual([
      ['unknownWorld', 404],
      ['injected429', 429],
      ['injected500', 500],
      ['injected502', 502],
      ['injected503', 503],
      ['injected504', 504],
      ['injected418', 418],
      ['injected501', 501],
      ['bug', 500],
    ])
  })

  it('is the same whatever the world: examples come from the default scenario, seed 1, a frozen clock', async () => {
    const { doc } = await documentFor('default')
    const other = createSimulator({ seed: 9, scenario: 'pending-users', clock: 'system' })
    expect(await other.openapi({ origin: 'http://127.0.0.1:4000' })).toEqual(doc)
  })

  it('is served at /__mock/openapi.json with the URLs of the server asked, whole or per area', async () => {
    const sim = createSimulator({ scenario: 'empty', root: ['core'], areas: ['admin', 'core'] })
    const get = async (path: string) => {
      const response = (await sim.fetch(new Request(`http://sim.test:8080${path}`)))!
      return { status: response.status, body: await response.json() }
    }
    const whole = await get('/__mock/openapi.json')
    expect(whole.status).toBe(200)
    expect(whole.body).toEqual(await sim.openapi({ origin: 'http://sim.test:8080' }))
    expect(whole.body.servers).toEqual([{ url: 'http://sim.test:8080', description: 'This simulator' }])
    const core = await get('/__mock/openapi.json?area=core')
    expect(core.body.servers).toEqual([{ url: 'http://sim.test:8080/core' }, { url: 'http://sim.test:8080' }])
    expect(Object.keys(core.body.paths)).toEqual(['/users', '/products/{id}', '/ingest/data'])
    const unknown = await get('/__mock/openapi.json?area=ledger') // not mounted here
    expect(unknown).toMatchObject({ status: 404, body: { error: 'not_found' } })
  })
})
