import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../simulator/create-simulator.js'
import { hasAtMostTwoDecimals, MAX_PRICE, price } from './schemas.js'

const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z' })

async function update(body: unknown) {
  const response = (await sim.fetch(
    new Request('http://sim.test/core/products/prod-1001', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  ))!
  return { status: response.status, body: (await response.json()) as any }
}

describe('prices (D14): from 0 to 10^12 with at most 2 decimals, and a message that says which rule', () => {
  it.each([0, 0.01, 19.99, 79.99, 0.07, 1.1, MAX_PRICE, MAX_PRICE - 0.01, 999_999_999_999.99])('accepts %d', (value) => {
    expect(price.safeParse(value).success).toBe(true)
  })

  it('refuses a huge price as too large, not as having too many decimals (1.8e306 overflowed to "at most 2 decimals")', async () => {
    for (const value of [1.8e306, 1.79e306, 1e13, MAX_PRICE + 0.01]) {
      expect(await update({ price: value }), String(value)).toMatchObject({
        status: 400,
        body: { error: 'validation_failed', details: [{ path: 'price', message: 'must be at most 1000000000000 (10^12)' }] },
      })
    }
  })

  it('refuses more than 2 decimals and a negative price, each with its own message, changing nothing', async () => {
    expect(await update({ price: 10.555 })).toMatchObject({ status: 400, body: { details: [{ path: 'price', message: 'must have at most 2 decimals' }] } })
    expect(await update({ price: -1 })).toMatchObject({ status: 400, body: { details: [{ path: 'price', message: 'must be at least 0' }] } })
    expect(sim.db.products!.findFirst((query) => query.where({ id: 'prod-1001' }))!.price).toBe(89.99)
  })

  it('says the bounds in the OpenAPI document, and the decimals in words every validator reads right', async () => {
    const doc = await sim.openapi()
    const body = (doc.paths['/core/products/{id}']!.put as any).requestBody.content['application/json'].schema
    expect(body.properties.price).toMatchObject({ type: 'number', minimum: 0, maximum: MAX_PRICE })
    expect(body.properties.price.description).toContain('at most 2 decimals')
    // `multipleOf: 0.01` is evaluated in floating point by validators (Prism, Spectral): 79.99 / 0.01 is 7998.999…, refused.
    expect(body.properties.price).not.toHaveProperty('multipleOf')
    expect(79.99 / 0.01).not.toBe(7999)
    expect(body.properties.id).toMatchObject({ type: 'string' })
  })

  it('tells two decimals apart exactly, where dividing by 0.01 cannot', () => {
    for (const value of [0, 0.01, 0.07, 0.1, 0.29, 1.1, 19.99, 79.99, 89.99, 1234.56, MAX_PRICE - 0.01, MAX_PRICE]) expect(hasAtMostTwoDecimals(value), String(value)).toBe(true)
    for (const value of [0.001, 0.005, 10.555, 19.999, 0.1 + 0.2, 1e-7, 123_456_789.123]) expect(hasAtMostTwoDecimals(value), String(value)).toBe(false)
  })
})
