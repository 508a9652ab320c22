import { describe, expect, it } from 'vitest'
import { DELIVERY_DELAY_MS, deliveryTime, fromNotificationState, toNotificationState } from './notifications.js'

const queued = { id: 'n1', recipients: [1, 2], message: 'hi', priority: 'normal' as const, queued_at: '2026-01-01T00:00:00.000Z' }

describe('notification delivery (D20)', () => {
  it('is delivered the priority delay after it was queued', () => {
    expect(DELIVERY_DELAY_MS).toEqual({ high: 1000, normal: 5000, low: 60000 })
    expect(deliveryTime(queued.queued_at, 'low')).toBe('2026-01-01T00:01:00.000Z')
  })

  it('derives status from the clock: queued before the delivery time, delivered from it on', () => {
    const record = fromNotificationState(queued)
    expect(record.deliver_at).toBe('2026-01-01T00:00:05.000Z')
    expect(toNotificationState(record, new Date('2026-01-01T00:00:04.999Z'))).toMatchObject({ status: 'queued', delivered_at: null })
    expect(toNotificationState(record, new Date('2026-01-01T00:00:05.000Z'))).toMatchObject({ status: 'delivered', delivered_at: record.deliver_at })
  })

  it('round-trips through the state form, keeping an explicit delivery time', () => {
    const record = fromNotificationState({ ...queued, queued_at: '2026-01-01T01:00:00+01:00', delivered_at: '2026-01-02T00:00:00Z' })
    expect(record).toMatchObject({ queued_at: '2026-01-01T00:00:00.000Z', deliver_at: '2026-01-02T00:00:00.000Z' })
    const state = toNotificationState(record, new Date('2026-01-03T00:00:00Z'))
    expect(fromNotificationState(state)).toEqual(record)
  })
})
