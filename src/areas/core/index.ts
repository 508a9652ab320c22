import { defineArea } from '../area.js'
import { createCoreCollections } from './collections.js'
import { coreOptions } from './ingestion/ingestion-options.js'
import { ProductCatalogue } from './product-catalogue.js'
import { ReadingWindow } from './ingestion/reading-window.js'
import { coreRecording } from './recording.js'
import { coreRoutes } from './routes.js'
import { coreSection, coreSectionSchemas } from './section.js'

/** Area B, the core interface (users, products, ingestion), mounted at `/core` by default (D1). */
export const coreArea = defineArea({
  id: 'core',
  letter: 'B',
  title: 'Core: users, products, data ingestion',
  prefix: '/core',
  options: coreOptions,
  section: coreSectionSchemas,
  recording: coreRecording,
  create({ world, accounts, options }) {
    const collections = createCoreCollections()
    const readings = new ReadingWindow(options.ingestion)
    return {
      routes: coreRoutes({ world, accounts, catalogue: new ProductCatalogue(collections), collections, readings }),
      collections,
      section: coreSection(collections, readings),
      api: { readings },
      counts: () => ({ readings: readings.counts().stored }),
    }
  },
})

/** `sim.readings` when Area B is not mounted: nothing kept, nothing counted. */
export function noReadings(): ReadingWindow {
  return new ReadingWindow({ sensorWindow: 0, window: 0 })
}

export { DEFAULT_INGEST_WINDOW, DEFAULT_SENSOR_WINDOW } from './ingestion/ingestion-options.js'
export { type IngestionCounts, type Readings, ReadingWindow, type SensorCounts, type StoredPoint, type WindowSizes } from './ingestion/reading-window.js'
export type { CoreCollections } from './collections.js'
export type * from './operations.js'
