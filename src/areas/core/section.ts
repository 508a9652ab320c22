import type * as z from 'zod'
import catalogueFixture from '../../../fixtures/products.json' with { type: 'json' }
import { fillCollection } from '../../kernel/data/fill-collection.js'
import type { StoreOf } from '../../world/section.js'
import type { CoreCollections } from './collections.js'
import type { ReadingWindow } from './ingestion/reading-window.js'
import { coreScenario, coreState, type Product } from './schemas.js'

/** The fixture catalogue (D14), as it is: catalogue.test.ts checks the product schema takes it unchanged, so a start does not parse it again. */
const catalogue: Product[] = catalogueFixture

/** Area B's place in scenarios and state: `core`. */
export const coreSectionSchemas = {
  key: 'core',
  scenarioSchema: coreScenario.optional().describe('Area B: product catalogue.'),
  stateSchema: coreState.default({ products: [], readings: [] }),
} as const

/**
 * The `core` section of scenarios and state: products, and the ingestion
 * window (D15) with its counts; a scenario starts with nothing ingested.
 */
export function coreSection(collections: CoreCollections, readings: ReadingWindow): StoreOf<typeof coreSectionSchemas> {
  const fill = async (state: z.infer<typeof coreState>, options?: { trusted?: boolean }) => {
    collections.products.clear()
    await fillCollection(collections.products, state.products, options)
    readings.import(state.readings)
  }
  return {
    load: (scenario) => {
      const products = scenario?.products ?? 'catalogue'
      // The catalogue is valid as it is (catalogue.test.ts): its records are not validated again.
      return fill({ products: products === 'catalogue' ? catalogue : products, readings: [] }, { trusted: products === 'catalogue' })
    },
    export: () => {
      const counts = readings.counts()
      return {
        products: collections.products.all().map((item) => ({ ...item })),
        readings: readings.export(),
        ingestion: { ...counts, sensors: readings.sensors().length, sensor_window: readings.sensorWindow, window: readings.window },
      }
    },
    import: fill,
  }
}
