import * as z from 'zod'
import { intParam } from '../../kernel/http/query.js'
import { isoTimestamp } from '../../kernel/time/iso-timestamp.js'
import { NOT_BLANK } from '../../kernel/schema/not-blank.js'

export { registration as createUserBody } from '../../world/accounts/account-schema.js'

/** `GET /users` query (D12). */
export const listUsersQuery = z.object({
  limit: intParam(1, 100).default(20),
  offset: intParam(0).default(0),
})

/**
 * Highest price: 10^12. Up to here a JSON number still carries every cent
 * exactly (a double is exact to 0.01 below 2^53 / 100 ≈ 9 × 10^13); above it
 * "at most 2 decimals" could not be told, and `price * 100` overflows near 1.8e306.
 */
export const MAX_PRICE = 1_000_000_000_000

/**
 * `true` when `value` is a number with at most two decimals: the double nearest
 * to some whole number of cents. Exact up to `MAX_PRICE` (`value * 100` stays
 * below 2^53), where `value / 0.01` in binary floating point is not (79.99 / 0.01
 * is 7998.999…).
 *
 * @example
 * hasAtMostTwoDecimals(79.99) // true
 * hasAtMostTwoDecimals(10.555) // false
 */
export function hasAtMostTwoDecimals(value: number): boolean {
  return Math.round(value * 100) / 100 === value
}

/**
 * A price: a number from 0 to `MAX_PRICE` with at most two decimals (D14). The
 * decimals are a rule of the server and the description, not `multipleOf: 0.01`,
 * which validators evaluate in floating point and so refuse 79.99 (Prism, Spectral).
 */
export const price = z
  .number('must be a number')
  .min(0, 'must be at least 0')
  // `abort`: past the maximum, "at most 2 decimals" would only add noise.
  .max(MAX_PRICE, { message: `must be at most ${MAX_PRICE} (10^12)`, abort: true })
  .refine(hasAtMostTwoDecimals, 'must have at most 2 decimals')
  .describe(`From 0 to ${MAX_PRICE}, with at most 2 decimals (79.99, not 79.999; D14): more decimals are refused with 400 "must have at most 2 decimals".`)
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

/** `{id}` in the product paths. */
export const productParams = z.object({ id: z.string().min(1).describe('Product id, e.g. `prod-1001`.') })

/** A product as the API returns it (D14). */
export const productResponse = product.meta({ id: 'Product', description: 'A product of the catalogue (D14).' })

/** Extra field of the product 404: the id looked for. */
export const unknownProductExtra = z.object({ id: z.string() })

/** Area B's projection of a shared account (D5): id, username, email, created_at. */
export const coreUser = z
  .object({ id: z.string(), username: z.string(), email: z.string(), created_at: isoTimestamp })
  .meta({ id: 'CoreUser', description: 'A user as Area B shows it (D5).' })
export type CoreUser = z.infer<typeof coreUser>

/** `PUT /products/{id}` body: fields to change; `id` cannot change (D14). */
export const updateProductBody = z
  .object({
    id: z.string("must be a string: the product's own id").optional().describe('Immutable: omit it or give the id of the path; any other value is refused (400).'),
    name: product.shape.name.optional(),
    description: product.shape.description.optional(),
    price: price.optional(),
    stock: stock.optional(),
  })
  .describe("The fields to change; the others keep their values. `id` is the product's own and cannot change: omit it, or give the path's id (any other is a 400).")

/** One element of an ingestion batch (D15). */
export const dataPoint = z.object({
  timestamp: isoTimestamp,
  value: z.number(),
  sensor_id: z
    .string()
    // `\S`: not only white space, which the trim below would leave empty.
    .regex(NOT_BLANK, 'must be a non-empty string')
    .trim()
    .describe('Names the sensor; surrounding white space is trimmed.'),
})

/** `POST /ingest/data` body (D15): the batch limit is the simulator's (`limits.ingestPoints`). */
export function ingestionBatch(maxPoints: number) {
  return z.array(dataPoint).min(1).max(maxPoints).describe(`Data points, all valid or none stored; at most ${maxPoints} (413 beyond).`)
}

/** `POST /ingest/data` answer (D15). */
export const ingestionResult = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    records_processed: z.int().min(1).describe('The number of points in the batch.'),
    batch_id: z.string().describe('Id of the batch.'),
  })
  .meta({ id: 'IngestionResult', description: 'What an accepted batch reports (D15).' })

/** Extra fields of a rejected batch: the indexes of the bad points (400) or the limit and size (413). */
export const invalidBatchExtra = z.object({ invalid_indexes: z.array(z.int().min(0)).optional() })
export const oversizedBatchExtra = z.object({ limit: z.int().min(1), received: z.int().min(1).optional() })

/** A kept point in the state document: an ISO 8601 instant (exports are UTC to the millisecond). */
const storedPoint = z.object({
  timestamp: isoTimestamp,
  value: z.number(),
})

/**
 * One sensor in the state document (D15 window): its running counts and the
 * points still kept, oldest first. Records of the earlier shape (one per
 * sensor and batch, with `id`, `batch_id`, `received_at`) are still accepted:
 * the extra fields are ignored and a sensor listed twice adds up.
 */
export const reading = z
  .object({
    sensor_id: z.string().min(1),
    accepted: z.int().min(0).optional().describe('Points this sensor ever had accepted: at least as many as `points` (400 otherwise); default: as many as `points`.'),
    evicted: z.int().min(0).optional().describe('Points the window let go of: `accepted` minus the points kept. Ignored on import.'),
    points: z.array(storedPoint).describe('Kept points, oldest first.'),
  })
  .superRefine((entry, ctx) => {
    if (entry.accepted !== undefined && entry.accepted < entry.points.length) {
      ctx.addIssue({ code: 'custom', path: ['accepted'], message: `must be at least the number of points (${entry.points.length})` })
    }
  })
export type Reading = z.infer<typeof reading>

/** Totals of the ingestion window, derived from `readings` (so ignored on import). */
export const ingestionSummary = z
  .object({
    accepted: z.int().min(0).describe('Points ever accepted, over every sensor.'),
    evicted: z.int().min(0).describe('Accepted points the window let go of, oldest first.'),
    stored: z.int().min(0).describe('Points kept now: `accepted` − `evicted`.'),
    sensors: z.int().min(0).describe('Sensors that ever sent a point.'),
    sensor_window: z.int().min(0).describe('Points kept per sensor (`--sensor-window`).'),
    window: z.int().min(0).describe('Points kept in all (`--ingest-window`).'),
  })
  .describe('Running counts of the ingestion window (D15); derived from `readings`, ignored on import.')

/** The `core` section of a scenario. */
export const coreScenario = z.strictObject({
  products: z
    .union([z.literal('catalogue'), z.array(product)])
    .default('catalogue')
    .describe('"catalogue" loads fixtures/products.json; an array replaces it.'),
})

/** The `core` section of the world state. */
export const coreState = z.strictObject({
  products: z
    .array(product)
    .superRefine((products, ctx) => {
      const seen = new Set<string>()
      products.forEach((item, index) => {
        if (seen.has(item.id)) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicate id "${item.id}"` })
        seen.add(item.id)
      })
    })
    .describe('The catalogue; each product id once.'),
  readings: z
    .array(reading)
    .superRefine((readings, ctx) => {
      // The counts are JavaScript numbers: past 2^53 − 1 they would no longer count (a + 1 === a).
      // Summed as the import sums them (ReadingWindow.import); the first reading past the bound is named.
      let total = 0
      for (const [index, entry] of readings.entries()) {
        total += Math.max(entry.accepted ?? 0, entry.points.length)
        if (total <= Number.MAX_SAFE_INTEGER) continue
        ctx.addIssue({ code: 'custom', path: [index, 'accepted'], message: `makes the points ever accepted, over every sensor, more than 2^53 − 1 (${Number.MAX_SAFE_INTEGER})` })
        return
      }
    })
    .default([])
    .describe(
      'Ingested points per sensor, in the order sensors first sent one (D15 window). The `accepted` counts add up to at most 2^53 − 1 (400 otherwise), a sensor listed twice included.',
    ),
  ingestion: ingestionSummary.optional(),
})
