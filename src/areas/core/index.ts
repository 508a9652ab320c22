import type { AreaFactory } from '../area.js'
import { createCoreCollections } from './collections.js'
import { ingestionSettings } from './ingestion-options.js'
import { ProductCatalogue } from './product-catalogue.js'
import { ReadingWindow } from './reading-window.js'
import { coreRoutes } from './routes.js'
import { coreSection } from './section.js'

/** Area B, the core interface (users, products, ingestion), mounted at `/core` by default (D1). */
export const coreArea: AreaFactory = {
  id: 'core',
  letter: 'B',
  title: 'Core: users, products, data ingestion',
  prefix: '/core',
  create({ world, accounts, options }) {
    const collections = createCoreCollections()
    const readings = new ReadingWindow(ingestionSettings(options))
    return {
      routes: coreRoutes(world, accounts, new ProductCatalogue(collections), collections, readings),
      collections,
      section: coreSection(collections, readings),
      readings,
    }
  },
}

export { coreScenario, coreState } from './schemas.js'
export { DEFAULT_INGEST_WINDOW, DEFAULT_SENSOR_WINDOW } from './ingestion-options.js'
export { type IngestionCounts, type Readings, ReadingWindow, type SensorCounts, type StoredPoint, type WindowSizes } from './reading-window.js'
export type { CoreCollections } from './collections.js'
export { coreOperations } from './operations.js'
export type {
  CoreListUsersRequest,
  CoreListUsersResponse,
  CoreCreateUserRequest,
  CoreCreateUserResponse,
  CoreGetProductRequest,
  CoreGetProductResponse,
  CoreUpdateProductRequest,
  CoreUpdateProductResponse,
  CoreIngestDataRequest,
  CoreIngestDataResponse,
} from './operations.js'
