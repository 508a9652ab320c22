import openapiTS, { astToString } from 'openapi-typescript'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../create-simulator.js'

/** The rules the server enforces, as the OpenAPI document says them (issue: a generated client sent what the server refused). */
describe('the OpenAPI document says the rules the server enforces', async () => {
  const sim = createSimulator({ scenario: 'empty' })
  const doc = (await sim.openapi()) as any
  // A schema the document names is followed to its component: what matters here is what it says, not where.
  const component = (schema: any): any => (schema?.$ref ? component(doc.components.schemas[schema.$ref.split('/').pop()]) : schema)
  const body = (path: string, method: string) => component(doc.paths[path][method].requestBody.content['application/json'].schema)
  const parameter = (path: string, method: string, name: string) => component(doc.paths[path][method].parameters.find((entry: any) => entry.name === name).schema)
  const matches = (schema: any, text: string) => new RegExp(component(schema).pattern, 'u').test(text)
  /** `true` when one branch of an `anyOf` of an enum and patterns takes `text`, as a validator reads it. */
  const accepts = (schema: any, text: string) =>
    component(schema).anyOf.some((branch: any) => (branch.enum ? branch.enum.includes(text) : new RegExp(branch.pattern, 'u').test(text)))

  it('uses no prefixItems anywhere (tuples are arrays with items and a fixed length)', () => {
    expect(JSON.stringify(doc)).not.toContain('prefixItems')
    const latency = body('/__mock/faults', 'post').properties.latency.anyOf[1]
    expect(latency).toMatchObject({ type: 'array', items: { type: 'integer', minimum: 0, maximum: 60000 }, minItems: 2, maxItems: 2 })
    const state = body('/__mock/state', 'put')
    expect(state.properties.meta.properties.random).toMatchObject({ type: 'array', minItems: 4, maxItems: 4, items: { type: 'integer', maximum: 4294967295 } })
  })

  it('gives a measurement axis as the enum of named axes beside the pattern of angles, the range included', () => {
    const axis = body('/quantum/v1/measure', 'post').properties.measurement_axis
    expect(component(axis).anyOf[0]).toEqual({ type: 'string', enum: ['x-axis', 'y-axis', 'z-axis'] })
    for (const text of ['x-axis', 'z-axis', '0deg', '22.5deg', '-360deg', '360.000deg', '359.999999deg', '007deg']) expect(accepts(axis, text), text).toBe(true)
    for (const text of ['w-axis', '361deg', '360.5deg', '-400deg', '999deg', '1e2deg', 'north']) expect(accepts(axis, text), text).toBe(false)
    // Answers and the state document say the same: never an empty `{}` branch (Redocly's no-illogical-composition-keywords).
    const particle = component(doc.components.schemas.Particle).properties.measurement_axis
    expect(particle.anyOf).toEqual([axis, { type: 'null' }])
    const empty: string[] = []
    const visit = (node: any, where: string) => {
      if (node === null || typeof node !== 'object') return
      for (const key of ['anyOf', 'oneOf', 'allOf']) {
        node[key]?.forEach((branch: any, index: number) => Object.keys(branch).length === 0 && empty.push(`${where}/${key}/${index}`))
      }
      for (const [key, value] of Object.entries(node)) visit(value, `${where}/${key}`)
    }
    visit(doc, '#')
    expect(empty).toEqual([])
  })

  it('refuses empty names in `fields`, and blank notification messages', () => {
    const fields = parameter('/general/data/{resource_id}', 'get', 'fields')
    expect(matches(fields, 'title, owner')).toBe(true)
    for (const text of ['', 'a,,b', 'a, ,b', ',a']) expect(matches(fields, text), text).toBe(false)
    const message = body('/general/notifications/send', 'post').properties.message
    expect(message).toMatchObject({ type: 'string', maxLength: 2000 })
    expect([matches(message, 'hi'), matches(message, '  \n ')]).toEqual([true, false])
  })

  it('gives the forms and ranges of `amount` and `nonce` in a delegation', () => {
    const { amount, nonce } = body('/ledger/v1/stake/delegate', 'post').properties
    expect(amount.anyOf[1]).toEqual({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER })
    expect(nonce.anyOf[1]).toEqual({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER })
    const max = (2n ** 256n - 1n).toString()
    expect([matches(amount.anyOf[0], max), matches(amount.anyOf[0], (2n ** 256n).toString()), matches(amount.anyOf[0], '0'), matches(nonce.anyOf[0], '0')]).toEqual([
      true,
      false,
      false,
      true,
    ])
  })

  it('gives the instants of the control API as date-times, and the form of `advance`', () => {
    const clock = body('/__mock/clock', 'post')
    expect(component(clock.properties.set)).toMatchObject({ type: 'string', format: 'date-time', description: expect.stringContaining('within the years 0000 to 9999 in UTC') })
    // The clock's range: as bounds on milliseconds, and in words for where it stands.
    expect(clock.properties.advance.anyOf).toEqual([
      { type: 'number', minimum: -315569519999999, maximum: 315569519999999 },
      expect.objectContaining({ type: 'string', pattern: expect.any(String) }),
    ])
    expect(clock.properties.advance.description).toContain('400 `advance: would move the clock out of the years 0000 to 9999`')
    expect([matches(clock.properties.advance.anyOf[1], '90s'), matches(clock.properties.advance.anyOf[1], 'soon')]).toEqual([true, false])
    expect(parameter('/__mock/requests', 'get', 'since')).toMatchObject({ format: 'date-time' })
    const world = body('/__mock/worlds', 'post').properties
    expect(world.clock.anyOf[0]).toEqual({ type: 'string', const: 'system' })
    expect(component(world.clock.anyOf[1])).toMatchObject({ format: 'date-time' })
    expect(world.id.not).toEqual({ const: 'default' })
  })

  it('says which clock and fault fields are required or exclusive', () => {
    expect(body('/__mock/clock', 'post').allOf).toEqual([{ anyOf: [{ required: ['mode'] }, { required: ['set'] }, { required: ['advance'] }] }])
    expect(body('/__mock/faults', 'post').allOf).toEqual([
      { anyOf: [{ required: ['latency'] }, { required: ['status'] }, { required: ['drop'] }] },
      { not: { required: ['status', 'drop'], properties: { status: {}, drop: {} } } },
      { anyOf: [{ not: { required: ['retryAfter'], properties: { retryAfter: {} } } }, { required: ['status'], properties: { status: { enum: [429, 503] } } }] },
    ])
  })

  it('leaves no object closed by omission: one without properties says additionalProperties, so generated clients can fill it', async () => {
    const silent: string[] = []
    const visit = (node: any, where: string) => {
      if (node === null || typeof node !== 'object') return
      if (node.type === 'object' && node.properties === undefined && node.additionalProperties === undefined) silent.push(where)
      for (const [key, value] of Object.entries(node)) visit(value, `${where}/${key}`)
    }
    visit(doc, '#')
    expect(silent).toEqual([])
    const data = body('/general/resources/{id}', 'put').properties.data
    expect(component(data)).toMatchObject({ type: 'object', additionalProperties: true })
    // openapi-typescript turned `data` into `Record<string, never>`, so a typed client could not send `PUT /general/resources/{id}`.
    const types = astToString(await openapiTS(doc))
    expect(types.replace(/export type (webhooks|\$defs) = Record<string, never>;/g, '')).not.toContain('Record<string, never>')
  })

  it('gives the limit of an ingestion batch, the price rules and the type of `id` in a product update', () => {
    expect(body('/core/ingest/data', 'post')).toMatchObject({ type: 'array', minItems: 1, maxItems: 10000 })
    const update = body('/core/products/{id}', 'put').properties
    // Two decimals in words, not `multipleOf: 0.01`, which validators evaluate in floating point (79.99 fails it).
    expect(update.price).toMatchObject({ type: 'number', minimum: 0, maximum: 1e12, description: expect.stringContaining('at most 2 decimals') })
    expect(update.price).not.toHaveProperty('multipleOf')
    expect(JSON.stringify(doc)).not.toContain('multipleOf')
    expect(update.id.type).toBe('string')
    expect(body('/core/products/{id}', 'put').description).toContain("give the path's id")
    expect(component(body('/admin/api/v1.2/users', 'post')).properties.email.pattern).toContain('{0,61}')
  })
})
