import { Collection } from '@msw/data'
import { notificationRecord, resourceRecord } from './schemas.js'

/**
 * Area D's own collections: the resources behind `/data` and `/resources` (D19)
 * and sent notifications (D20), exposed as `sim.db.resources` and `sim.db.notifications`.
 *
 * @example
 * const { resources, notifications } = createGeneralCollections()
 */
export function createGeneralCollections() {
  return {
    resources: new Collection({ schema: resourceRecord }),
    notifications: new Collection({ schema: notificationRecord }),
  }
}
export type GeneralCollections = ReturnType<typeof createGeneralCollections>
