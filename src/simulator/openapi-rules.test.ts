import { describe, expect, it } from 'vitest'
import { createSimulator } from './create-simulator.js'

/** The rules the server enforces, as the OpenAPI document says them (issue: a generated client sent what the server refused). */
describe('the OpenAPI document says the rules the server enforces', async () => {
  const sim = createSimulator({ scenario: 'empty' })
  const doc = (await sim.openapi()) as any
  const body = (path: string, method: string) => doc.paths[path][method].requestBody.content['application/json'].schema
  const parameter = (path: string, method: string, name: string) => doc.paths[path][method].parameters.find((entry: any) => entry.name === name).schema
  const component = (schema: any) => (schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema)
  const matches = (schema: any, text: string) => new RegExp(schema.pattern, 'u').test(text)

  it('uses no prefixItems anywhere (tuples are arrays with items and a fixed length)', () => {
    expect(JSON.stringify(doc)).not.toContain('prefixItems')
    const latency = body('/__mock/faults', 'post').properties.latency.anyOf[1]
    expect(latency).toMatchObject({ type: 'array', items: { type: 'integer', minimum: 0, maximum: 60000 }, minItems: 2, maxItems: 2 })
    const state = body('/__mock/state', 'put')
    expect(state.properties.meta.properties.random).toMatchObject({ type: 'array', minItems: 4, maxItems: 4, items: { type: 'integer', maximum: 4294967295 } })
  })

  it('gives the range of a measurement axis in its pattern', () => {
    const axis = body('/quantum/v1/measure', 'post').properties.measurement_axis
    for (const text of ['x-axis', 'z-axis', '0deg', '22.5deg', '-360deg', '360.000deg', '359.999999deg', '007deg']) expect(matches(axis, text), text).toBe(true)
    for (const text of ['361deg', '360.5deg', '-400deg', '999deg', '1e2deg', 'north']) expect(matches(axis, text), text).toBe(false)
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
    expect(clock.properties.set).toMatchObject({ type: 'string', format: 'date-time' })
    expect(clock.properties.advance.anyOf).toEqual([{ type: 'number' }, expect.objectContaining({ type: 'string', pattern: expect.any(String) })])
    expect([matches(clock.properties.advance.anyOf[1], '90s'), matches(clock.properties.advance.anyOf[1], 'soon')]).toEqual([true, false])
    expect(parameter('/__mock/requests', 'get', 'since')).toMatchObject({ format: 'date-time' })
    const world = body('/__mock/worlds', 'post').properties
    expect(world.clock.anyOf).toEqual([{ type: 'string', const: 'system' }, expect.objectContaining({ format: 'date-time' })])
    expect(world.id.not).toEqual({ const: 'default' })
  })

  it('says which clock and fault fields are required or exclusive', () => {
    expect(body('/__mock/clock', 'post').allOf).toEqual([{ anyOf: [{ required: ['mode'] }, { required: ['set'] }, { required: ['advance'] }] }])
    expect(body('/__mock/faults', 'post').allOf).toEqual([
      { anyOf: [{ required: ['latency'] }, { required: ['status'] }, { required: ['drop'] }] },
      { not: { required: ['status', 'drop'] } },
      { anyOf: [{ not: { required: ['retryAfter'] } }, { required: ['status'], properties: { status: { enum: [429, 503] } } }] },
    ])
  })

  it('gives the limit of an ingestion batch, the price rules and the type of `id` in a product update', () => {
    expect(body('/core/ingest/data', 'post')).toMatchObject({ type: 'array', minItems: 1, maxItems: 10000 })
    const update = body('/core/products/{id}', 'put').properties
    expect(update.price).toMatchObject({ minimum: 0, maximum: 1e12, multipleOf: 0.01 })
    expect(update.id.type).toBe('string')
    expect(component(body('/admin/api/v1.2/users', 'post')).properties.email.pattern).toContain('{0,61}')
  })
})
