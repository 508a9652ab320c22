import type { AreaFactory } from '../area.js'
import { createCoreCollections } from './collections.js'
import { ProductCatalogue } from './product-catalogue.js'
import { coreRoutes } from './routes.js'
import { coreSection } from './section.js'

/** Area B, the core interface (users, products, ingestion), mounted at `/core` by default (D1). */
export const coreArea: AreaFactory = {
  id: 'core',
  letter: 'B',
  title: 'Core: users, products, data ingestion',
  prefix: '/core',
  create({ world, accounts }) {
    const collections = createCoreCollections()
    return {
      routes: coreRoutes(world, accounts, new ProductCatalogue(collections), collections),
      collections,
      section: coreSection(collections),
    }
  },
}

export { coreScenario, coreState } from './schemas.js'
