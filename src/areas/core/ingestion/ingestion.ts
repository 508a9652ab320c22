import { ApiError, type ErrorDetail, validationFailed } from '../../../kernel/errors/api-error.js'
import { issuesToDetails, safeParse } from '../../../kernel/http/validate.js'
import { dataPoint } from '../schemas.js'

/** A batch that passed validation: its points in batch order, and how many sensors they name. */
export interface ValidBatch {
  points: Array<{ sensor_id: string; timestamp: string; value: number }>
  sensors: number
}

/**
 * Validates a whole ingestion batch (D15), keeping its order. All or
 * nothing: one bad point rejects the batch with every bad point's index; an
 * empty batch is 400; over `maxPoints` is 413.
 *
 * @example
 * validateBatch([{ timestamp: '2026-01-01T00:00:00Z', value: 1.5, sensor_id: 's1' }], 10_000)
 */
export function validateBatch(input: unknown, maxPoints: number): ValidBatch {
  if (!Array.isArray(input)) throw validationFailed([{ path: '', message: 'must be a JSON array of data points' }])
  if (input.length === 0) throw validationFailed([{ path: '', message: 'must contain at least one data point' }])
  if (input.length > maxPoints) {
    throw new ApiError(413, 'payload_too_large', `The batch has ${input.length} data points; the limit is ${maxPoints}.`, {
      extra: { limit: maxPoints, received: input.length },
    })
  }
  const details: ErrorDetail[] = []
  const invalid: number[] = []
  const points: ValidBatch['points'] = []
  const sensors = new Set<string>()
  input.forEach((raw, index) => {
    const result = safeParse(dataPoint, raw)
    if (!result.success) {
      invalid.push(index)
      details.push(...issuesToDetails(result.error.issues, String(index)))
      return
    }
    points.push(result.data)
    sensors.add(result.data.sensor_id)
  })
  if (invalid.length > 0) {
    throw new ApiError(400, 'validation_failed', `${invalid.length} of ${input.length} data points are invalid; nothing was stored.`, {
      details,
      extra: { invalid_indexes: invalid },
    })
  }
  return { points, sensors: sensors.size }
}
