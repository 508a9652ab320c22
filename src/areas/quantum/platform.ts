import { ApiError } from '../../kernel/errors/api-error.js'
import type { PlatformSettings, PlatformStatus } from './schemas.js'

/** Load is measured over the last minute of the simulator clock (D18). */
export const LOAD_WINDOW_MS = 60_000

/** Operations per window that make 100 % load: 600 a minute, 10 a second. */
export const LOAD_CAPACITY = 600

/**
 * The entanglement platform's status (D18): the status a scenario or state
 * sets, and a load derived from activity on the simulator clock, so it is
 * reproducible with a frozen clock and moves when the clock moves.
 *
 * load_percentage = min(100, base_load_percentage + 100 × operations in the
 * last 60 s / 600), rounded to 2 decimals; operations are successful
 * entangle and measure requests.
 *
 * @example
 * platform.record(Date.parse('2026-01-01T00:00:00Z'))
 * platform.loadPercentage(Date.parse('2026-01-01T00:00:30Z')) // 0.17
 */
export class Platform {
  #settings: PlatformSettings = { status: 'operational', base_load_percentage: 0, retry_after_seconds: 120 }
  /** Instants (ms) of recent operations, oldest first, at most LOAD_CAPACITY of them. */
  #operations: number[] = []

  get status(): PlatformStatus {
    return this.#settings.status
  }

  /** Counts one operation at `now` (ms since the epoch). */
  record(now: number): void {
    const operations = this.#operations
    while (operations.length > 0 && (operations.length >= LOAD_CAPACITY || operations[0]! <= now - LOAD_WINDOW_MS)) operations.shift()
    operations.push(now)
  }

  loadPercentage(now: number): number {
    let recent = 0
    // Instants after `now` are ignored: the clock was moved back past them.
    for (const at of this.#operations) if (at > now - LOAD_WINDOW_MS && at <= now) recent++
    const load = Math.min(100, this.#settings.base_load_percentage + (recent / LOAD_CAPACITY) * 100)
    return Math.round(load * 100) / 100
  }

  /** During maintenance every endpoint but the status answers 503 with `Retry-After` (D9, D18). */
  assertAvailable(): void {
    if (this.#settings.status !== 'maintenance') return
    const seconds = this.#settings.retry_after_seconds
    throw new ApiError(503, 'service_unavailable', `The entanglement platform is under maintenance; retry in ${seconds} seconds.`, {
      headers: { 'retry-after': String(seconds) },
      extra: { retry_after: seconds },
    })
  }

  export(): { platform: PlatformSettings; recent_operations: string[] } {
    return { platform: { ...this.#settings }, recent_operations: this.#operations.map((at) => new Date(at).toISOString()) }
  }

  replace(settings: PlatformSettings, operations: readonly string[] = []): void {
    this.#settings = { ...settings }
    this.#operations = operations.map((at) => Date.parse(at)).slice(-LOAD_CAPACITY)
  }
}
