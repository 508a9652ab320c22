// @ts-check
// The median the bench's figures are: of rounds, pairs or fresh processes.

/**
 * The median of numbers (those that are not finite are left out; NaN when none are).
 *
 * @example
 * median([3, 1, 2]) // 2
 * @param {number[]} values
 */
export function median(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  if (sorted.length === 0) return NaN
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
