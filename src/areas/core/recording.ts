import type * as z from 'zod'
import { RECORDED_USERS } from '../../world/accounts/accounts-recording.js'
import { type AreaRecording, nothingShown, type Observation, type ObserveResult, pick, type RecordedExchange, type SectionRecording } from '../../world/recording.js'
import type { CoreOperations } from './operations.js'
import { type coreScenario, product } from './schemas.js'

/** The collection Area B records products into (section `core`). */
const PRODUCTS = 'products'
/** What Area B shows of a user (`CoreUser`). */
const USER_FIELDS = ['id', 'username', 'email', 'created_at'] as const
/** What it shows of a product (`Product`). */
const PRODUCT_FIELDS = ['id', 'name', 'description', 'price', 'stock'] as const

/**
 * The `core` part of a recorded scenario.
 *
 * @example
 * const part: RecordedCore = { products: [{ id: 'prod-1001', name: 'Lamp', description: '', price: 19.99, stock: 3 }] }
 */
export type RecordedCore = z.input<typeof coreScenario>

/**
 * The `core` section of a recorded scenario: the products the traffic showed,
 * as an explicit list (`[]` when none: the fixture catalogue is not loaded,
 * since a product never seen is not invented), over the base section's other
 * settings. A product the scenario would refuse (a price with three decimals...)
 * is left out, with why.
 *
 * @example
 * coreSectionRecording.scenario(recorded, { products: 'catalogue' }).scenario // { products: [{ id: 'prod-1001', ... }] }
 */
export const coreSectionRecording: SectionRecording<RecordedCore> = {
  key: 'core',
  scenario({ collections }, base) {
    const products: Array<z.input<typeof product>> = []
    const left: string[] = []
    for (const [id, fields] of collections.get(PRODUCTS) ?? new Map<string, Readonly<Record<string, unknown>>>()) {
      const checked = product.safeParse({ ...fields, id })
      if (checked.success) products.push({ ...fields, id } as z.input<typeof product>)
      else left.push(`${PRODUCTS}/${id}: ${checked.error.issues[0]!.path.join('.')} ${checked.error.issues[0]!.message}`)
    }
    const settings = base !== null && typeof base === 'object' ? (base as Record<string, unknown>) : {}
    return { scenario: { ...settings, products }, left }
  },
}

/**
 * What Area B's answers show: users (section `accounts`, shared with Area A)
 * and products (section `core`).
 *
 * - `listUsers` 200, `createUser` 201: each user shown exists, with `id`,
 *   `username`, `email`, `created_at` (Area B shows no status). A user created
 *   here is also `pending` with no login yet, as Area B documents for a new one
 *   (an Area A answer seen later overrides it). Never the request's password;
 * - `getProduct` 200, `updateProduct` 200: the product exists as shown;
 *   a 404 of either: the path's product is gone;
 * - `ingestData`: not mapped, whatever its status: readings have no place in
 *   scenarios (a scenario starts with nothing ingested).
 *
 * Any other 4xx changed nothing: mapped, nothing kept. A 5xx, or a status the
 * operation does not document, is not mapped (named in the summary).
 *
 * @example
 * recorderFor({ dispatcher: sim.dispatcher, areas: ['core'], description: 'Recorded' }) // reads Area B's answers with these rules
 */
export const coreRecording: AreaRecording = {
  sections: ['accounts', 'core'],
  observe: {
    listUsers: (exchange) => (exchange.status === 200 ? (exchange.response as unknown[]).map((item) => user(item)) : nothingShown(exchange)),
    createUser: (exchange) => (exchange.status === 201 ? [user(exchange.response, { status: 'pending', last_login: null })] : nothingShown(exchange)),
    getProduct: (exchange) => productOrGone(exchange),
    updateProduct: (exchange) => productOrGone(exchange),
    ingestData: () => ({ unmapped: 'readings have no place in scenarios: a scenario starts with nothing ingested' }),
  } satisfies Record<keyof CoreOperations, (exchange: RecordedExchange) => ObserveResult>,
  section: coreSectionRecording,
}

function user(shown: unknown, implied: Record<string, unknown> = {}): Observation {
  const fields = { ...implied, ...pick(shown, USER_FIELDS) }
  return { kind: 'upsert', section: 'accounts', collection: RECORDED_USERS, id: fields.id as string, fields }
}

/** A 200 shows the product; a 404 shows the path's product is gone. */
function productOrGone(exchange: RecordedExchange): ObserveResult {
  if (exchange.status === 200) {
    const fields = pick(exchange.response, PRODUCT_FIELDS)
    return [{ kind: 'upsert', section: 'core', collection: PRODUCTS, id: fields.id as string, fields }]
  }
  if (exchange.status === 404) return [{ kind: 'remove', section: 'core', collection: PRODUCTS, id: exchange.params.id! }]
  return nothingShown(exchange)
}
