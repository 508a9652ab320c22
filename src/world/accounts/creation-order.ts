/** What D12 orders by. */
interface Created {
  created_at: string
  id: string
}

/** Orders by `created_at`, then `id` (D12). */
export function byCreation(a: Created, b: Created): number {
  return a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/** `toISOString()` form, in which text order is time order. */
const CANONICAL_LENGTH = 24

/**
 * Sorts `list` in place into D12 order (`byCreation`), as `list.sort(byCreation)`
 * would. 100,000 generated users arrive in random order; a sort calling a
 * comparator ~1.7 million times was ~20 % of seeding them (bench/README.md,
 * "Scale"). Here each instant and position are packed into one number and the
 * numbers sorted natively; equal instants are then put in `id` order. Lists
 * whose instants are not all in `toISOString()` form, or too far apart to pack,
 * take `list.sort(byCreation)`.
 *
 * @example
 * sortByCreation(accounts) // oldest first, ties by id
 */
export function sortByCreation<T extends Created>(list: T[]): T[] {
  const count = list.length
  if (count < 2) return list
  const times = new Float64Array(count)
  let min = Infinity
  let max = -Infinity
  for (let i = 0; i < count; i++) {
    const text = list[i]!.created_at
    const time = text.length === CANONICAL_LENGTH && text.charCodeAt(CANONICAL_LENGTH - 1) === 90 ? Date.parse(text) : Number.NaN
    if (Number.isNaN(time)) return list.sort(byCreation)
    times[i] = time
    if (time < min) min = time
    if (time > max) max = time
  }
  // (time - min) * count + position must stay an exact integer.
  if ((max - min + 1) * count > Number.MAX_SAFE_INTEGER) return list.sort(byCreation)
  const keys = new Float64Array(count)
  for (let i = 0; i < count; i++) keys[i] = (times[i]! - min) * count + i
  keys.sort()
  const sorted = new Array<T>(count)
  for (let i = 0; i < count; i++) sorted[i] = list[keys[i]! % count]!
  // Equal instants are in list order now; D12 wants them by id.
  for (let start = 0; start < count; ) {
    let end = start + 1
    while (end < count && sorted[end]!.created_at === sorted[start]!.created_at) end++
    if (end - start > 1) {
      const run = sorted.slice(start, end).sort(byCreation)
      for (let i = 0; i < run.length; i++) sorted[start + i] = run[i]!
    }
    start = end
  }
  for (let i = 0; i < count; i++) list[i] = sorted[i]!
  return list
}
