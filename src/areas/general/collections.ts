import { trustableCollection } from '../../kernel/data/trustable-schema.js'
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
    resources: trustableCollection(resourceRecord),
    notifications: trustableCollection(notificationRecord),
  }
}
export type GeneralCollections = ReturnType<typeof createGeneralCollections>
