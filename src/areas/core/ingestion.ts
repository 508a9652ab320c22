import { ApiError, type ErrorDetail, validationFailed } from '../../kernel/api-error.js'
import { issuesToDetails } from '../../kernel/validate.js'
import { dataPoint } from './schemas.js'

export interface SensorBatch {
  sensor_id: string
  points: Array<{ timestamp: string; value: number }>
}

/**
 * Validates a whole ingestion batch (D15) and groups it per sensor, in order of
 * first appearance. All or nothing: one bad point rejects the batch with every
 * bad point's index; an empty batch is 400; over `maxPoints` is 413.
 *
 * @example
 * validateBatch([{ timestamp: '2026-01-01T00:00:00Z', value: 1.5, sensor_id: 's1' }], 10_000)
 */
export function validateBatch(input: unknown, maxPoints: number): SensorBatch[] {
  if (!Array.isArray(input)) throw validationFailed([{ path: '', message: 'must be a JSON array of data points' }])
  if (input.length === 0) throw validationFailed([{ path: '', message: 'must contain at least one data point' }])
  if (input.length > maxPoints) {
    throw new ApiError(413, 'payload_too_large', `The batch has ${input.length} data points; the limit is ${maxPoints}.`, {
      extra: { limit: maxPoints, received: input.length },
    })
  }
  const details: ErrorDetail[] = []
  const invalid: number[] = []
  const bySensor = new Map<string, SensorBatch>()
  input.forEach((raw, index) => {
    const result = dataPoint.safeParse(raw)
    if (!result.success) {
      invalid.push(index)
      details.push(...issuesToDetails(result.error.issues, String(index)))
      return
    }
    const { sensor_id, timestamp, value } = result.data
    let batch = bySensor.get(sensor_id)
    if (!batch) bySensor.set(sensor_id, (batch = { sensor_id, points: [] }))
    batch.points.push({ timestamp, value })
  })
  if (invalid.length > 0) {
    throw new ApiError(400, 'validation_failed', `${invalid.length} of ${input.length} data points are invalid; nothing was stored.`, {
      details,
      extra: { invalid_indexes: invalid },
    })
  }
  return [...bySensor.values()]
}
