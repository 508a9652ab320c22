import { describe, expect, it } from 'vitest'
import catalogue from '../../../fixtures/products.json' with { type: 'json' }
import { product } from './schemas.js'

describe('the product catalogue fixture (D14)', () => {
  it('matches the product schema as it is (a start takes it without parsing), with unique ids', () => {
    expect(catalogue.length).toBeGreaterThan(0)
    for (const item of catalogue) expect(product.parse(item), item.id).toEqual(item)
    expect(new Set(catalogue.map((item) => item.id)).size).toBe(catalogue.length)
  })
})
