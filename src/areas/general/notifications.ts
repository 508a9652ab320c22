import type { World } from '../../world/world.js'
import type { GeneralCollections } from './collections.js'
import type { NotificationRecord, NotificationState, Priority } from './schemas.js'

/** How long a notification stays queued, by priority, in simulator time (D20, documented). */
export const DELIVERY_DELAY_MS: Readonly<Record<Priority, number>> = { high: 1_000, normal: 5_000, low: 60_000 }

/**
 * When a notification queued at `queuedAt` with `priority` is delivered.
 *
 * @example
 * deliveryTime('2026-01-01T00:00:00.000Z', 'normal') // '2026-01-01T00:00:05.000Z'
 */
export function deliveryTime(queuedAt: string, priority: Priority): string {
  return new Date(Date.parse(queuedAt) + DELIVERY_DELAY_MS[priority]).toISOString()
}

/**
 * A notification as the state API shows it at `now`. Its status is derived
 * from the clock rather than flipped by a timer, so it follows the simulator
 * clock exactly: with a frozen clock it stays `queued` until the clock moves.
 *
 * @example
 * toNotificationState(record, world.clock.now()) // { …, status: 'delivered', delivered_at: '…' }
 */
export function toNotificationState(record: NotificationRecord, now: Date): NotificationState {
  const delivered = Date.parse(record.deliver_at) <= now.getTime()
  return {
    id: record.id,
    recipients: [...record.recipients],
    message: record.message,
    priority: record.priority,
    status: delivered ? 'delivered' : 'queued',
    queued_at: record.queued_at,
    delivered_at: delivered ? record.deliver_at : null,
  }
}

/**
 * The stored form of a notification from state or a scenario: `delivered_at`,
 * when given, is the delivery time; otherwise the priority's delay applies.
 *
 * @example
 * fromNotificationState({ id: 'n1', recipients: [1], message: 'hi', priority: 'high', queued_at: '2026-01-01T00:00:00Z' })
 * // deliver_at: '2026-01-01T00:00:01.000Z'
 */
export function fromNotificationState(state: NotificationState): NotificationRecord {
  const queuedAt = new Date(state.queued_at).toISOString()
  return {
    id: state.id,
    recipients: [...state.recipients],
    message: state.message,
    priority: state.priority,
    queued_at: queuedAt,
    deliver_at: state.delivered_at ? new Date(state.delivered_at).toISOString() : deliveryTime(queuedAt, state.priority),
  }
}

/**
 * Queues notifications (D20). Recipients are opaque positive integers (the
 * shared accounts have string ids), de-duplicated in order of first mention.
 *
 * @example
 * const queued = await new Outbox(world, collections).send({ recipient_ids: [1, 2], message: 'hi', priority: 'high' })
 */
export class Outbox {
  readonly #world: World
  readonly #collections: GeneralCollections

  constructor(world: World, collections: GeneralCollections) {
    this.#world = world
    this.#collections = collections
  }

  send(input: { recipient_ids: number[]; message: string; priority: Priority }): Promise<NotificationRecord> {
    const queuedAt = this.#world.now()
    return this.#collections.notifications.create({
      id: this.#world.nextId(),
      recipients: [...new Set(input.recipient_ids)],
      message: input.message,
      priority: input.priority,
      queued_at: queuedAt,
      deliver_at: deliveryTime(queuedAt, input.priority),
    })
  }
}
