import * as z from 'zod'
import catalogueFixture from '../../../fixtures/products.json' with { type: 'json' }
import type { WorldSection } from '../../world/section.js'
import type { CoreCollections } from './collections.js'
import { coreScenario, coreState, product } from './schemas.js'

/** The fixture catalogue (D14), validated once when the module loads. */
const catalogue = z.array(product).parse(catalogueFixture)

/** The `core` section of scenarios and state: products and stored readings. */
export function coreSection(collections: CoreCollections): WorldSection<z.infer<typeof coreScenario>, z.infer<typeof coreState>> {
  const fill = async (state: z.infer<typeof coreState>) => {
    collections.products.clear()
    collections.readings.clear()
    for (const item of state.products) await collections.products.create(item)
    for (const item of state.readings) await collections.readings.create(item)
  }
  return {
    key: 'core',
    scenarioSchema: coreScenario,
    stateSchema: coreState,
    load: (scenario) => {
      const products = scenario?.products ?? 'catalogue'
      return fill({ products: products === 'catalogue' ? catalogue : products, readings: [] })
    },
    export: () => ({
      products: collections.products.all().map((item) => ({ ...item })),
      readings: collections.readings.all().map((item) => ({ ...item, points: item.points.map((point) => ({ ...point })) })),
    }),
    import: fill,
  }
}
