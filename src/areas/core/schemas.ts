import * as z from 'zod'
import { intParam } from '../../kernel/query.js'
import { isoTimestamp } from '../../world/accounts/account-schema.js'

export { registration as createUserBody } from '../../world/accounts/account-schema.js'

/** `GET /users` query (D12). */
export const listUsersQuery = z.object({
  limit: intParam(1, 100).default(20),
  offset: intParam(0).default(0),
})

/** A price: a non-negative number with at most two decimals (D14). */
export const price = z
  .number()
  .min(0, 'must be at least 0')
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, 'must have at most 2 decimals')
export const stock = z.int('must be an integer').min(0, 'must be at least 0')

/** A product of the catalogue (D14). */
export const product = z.object({
  id: z.string().min(1),
  name: z.string().min(1).max(200),
  description: z.string().max(2000),
  price,
  stock,
})
export type Product = z.infer<typeof product>

/** `PUT /products/{id}` body: fields to change; `id` cannot change (D14). */
export const updateProductBody = z.object({
  id: z.unknown().optional(),
  name: product.shape.name.optional(),
  description: product.shape.description.optional(),
  price: price.optional(),
  stock: stock.optional(),
})

/** One element of an ingestion batch (D15). */
export const dataPoint = z.object({
  timestamp: isoTimestamp,
  value: z.number(),
  sensor_id: z.string().trim().min(1, 'must be a non-empty string'),
})

/** Accepted points of one sensor from one batch, as stored (D15). */
export const reading = z.object({
  id: z.string(),
  batch_id: z.string(),
  sensor_id: z.string(),
  received_at: z.string(),
  points: z.array(z.object({ timestamp: z.string(), value: z.number() })),
})
export type Reading = z.infer<typeof reading>

/** The `core` section of a scenario. */
export const coreScenario = z.strictObject({
  products: z
    .union([z.literal('catalogue'), z.array(product)])
    .default('catalogue')
    .describe('"catalogue" loads fixtures/products.json; an array replaces it.'),
})

/** The `core` section of the world state. */
export const coreState = z.strictObject({
  products: z.array(product).superRefine((products, ctx) => {
    const seen = new Set<string>()
    products.forEach((item, index) => {
      if (seen.has(item.id)) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicate id "${item.id}"` })
      seen.add(item.id)
    })
  }),
  readings: z.array(reading).default([]),
})
