import * as z from 'zod'
import { ConfigError } from '../errors/config-error.js'
import { type Clock, parseInstant } from './clock.js'
import { withinClockRange } from './iso-instant.js'

/** Where a `SimClock` stands, so `reset()` can put it back (see `save`/`restore`). */
export interface ClockSetting {
  /** The instant time stands still at (ms since the epoch), or `null` while it runs. */
  frozenAt: number | null
  /** Milliseconds added to the source clock while it runs. */
  offset: number
}

/** What a duration may be, as messages say it. */
export const DURATION_EXPECTED = 'expected milliseconds or a number with ms, s, m, h or d (e.g. "90s")'

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** A duration as text: a number, optionally signed and with decimals, then `ms`, `s`, `m`, `h` or `d` (none: ms). */
export const DURATION_PATTERN = /^\s*(-?\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/

/**
 * Parses a duration: a number of milliseconds, or text like `'90s'`, `'1.5h'`,
 * `'250ms'`, `'2d'`, `'-30m'`. Anything else throws a `ConfigError` naming the value.
 *
 * @example
 * parseDuration('90s') // 90000
 */
export function parseDuration(value: number | string): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ConfigError(`Invalid duration ${value}: expected a finite number of milliseconds.`)
    return value
  }
  const match = DURATION_PATTERN.exec(value)
  if (!match) throw new ConfigError(`Invalid duration "${value}": ${DURATION_EXPECTED}.`)
  return Number(match[1]) * UNIT_MS[match[2] ?? 'ms']!
}

/**
 * A duration option: milliseconds, or text as `parseDuration` takes it; the
 * value is in milliseconds.
 *
 * @example
 * durationSchema.parse('30m') // 1800000
 */
export const durationSchema = z.union([z.number(), z.string()], DURATION_EXPECTED).transform((value, ctx) => {
  try {
    return parseDuration(value)
  } catch {
    ctx.addIssue({ code: 'custom', message: DURATION_EXPECTED })
    return z.NEVER
  }
})

/**
 * The simulator's clock (D4, D24): frozen at an instant (reproducible
 * timestamps) or running with the source clock, and movable either way, so a
 * test can let an hour pass without waiting for it. Everything time-based
 * (token expiry, block height, delivery) reads `now()`, so it all follows.
 *
 * @example
 * const clock = new SimClock({ frozenAt: Date.parse('2026-01-01T00:00:00Z') })
 * clock.advance('1h') // now() is 2026-01-01T01:00:00Z
 */
export class SimClock implements Clock {
  readonly #source: () => number
  #frozenAt: number | null
  #offset = 0

  constructor(options: { frozenAt?: number | null; source?: () => number } = {}) {
    this.#source = options.source ?? Date.now
    this.#frozenAt = options.frozenAt ?? null
  }

  get fixed(): boolean {
    return this.#frozenAt !== null
  }

  now(): Date {
    return new Date(this.nowMs())
  }

  /** The same instant in epoch milliseconds, without a `Date` (read on every request). */
  nowMs(): number {
    return this.#frozenAt ?? this.#source() + this.#offset
  }

  /** Moves time forward (or back, with a negative duration), frozen or running. */
  advance(duration: number | string): Date {
    const ms = parseDuration(duration)
    if (!withinClockRange(this.now().getTime() + ms)) {
      throw new ConfigError(`Cannot advance the clock by ${duration}: it would leave the years 0000 to 9999.`)
    }
    if (this.#frozenAt !== null) this.#frozenAt += ms
    else this.#offset += ms
    return this.now()
  }

  /** Jumps to an ISO 8601 instant; a running clock keeps running from there. */
  set(instant: string): Date {
    const ms = parseInstant(instant)
    if (this.#frozenAt !== null) this.#frozenAt = ms
    else this.#offset = ms - this.#source()
    return this.now()
  }

  /** Stops time at the current instant. */
  freeze(): Date {
    this.#frozenAt ??= this.#source() + this.#offset
    return this.now()
  }

  /** Lets time run again from the current instant. */
  resume(): Date {
    if (this.#frozenAt !== null) {
      this.#offset = this.#frozenAt - this.#source()
      this.#frozenAt = null
    }
    return this.now()
  }

  /** An independent clock on the same source, standing where this one stands now. */
  fork(): SimClock {
    const copy = new SimClock({ source: this.#source })
    copy.restore(this.save())
    return copy
  }

  save(): ClockSetting {
    return { frozenAt: this.#frozenAt, offset: this.#offset }
  }

  restore(setting: ClockSetting): void {
    this.#frozenAt = setting.frozenAt
    this.#offset = setting.offset
  }
}

/**
 * The `clock` option: an ISO 8601 instant (frozen there), `'system'` (running)
 * or a `Clock` of your own; `toSimClock` makes the simulator clock of it.
 *
 * @example
 * clockOptionSchema.safeParse('yesterday').success // false
 */
export const clockOptionSchema = z.custom<string | Clock>(
  (value) => (typeof value === 'string' ? value === 'system' || value === 'real' || isInstant(value) : isClock(value)),
  'expected an ISO 8601 instant such as 2026-01-01T00:00:00Z, or "system"',
)

function isInstant(text: string): boolean {
  try {
    parseInstant(text)
    return true
  } catch {
    return false
  }
}

function isClock(value: unknown): value is Clock {
  return typeof value === 'object' && value !== null && typeof (value as Clock).now === 'function'
}

/**
 * Builds the simulator clock from the `clock` option: an ISO instant (frozen
 * there), `'system'` (default, running), or a `Clock` of your own (read through,
 * still movable).
 */
export function toSimClock(option: string | Clock | undefined, source?: () => number): SimClock {
  if (option === undefined || option === 'system' || option === 'real') return new SimClock({ source })
  if (typeof option === 'string') return new SimClock({ frozenAt: parseInstant(option), source })
  if (option instanceof SimClock) return option
  return option.fixed ? new SimClock({ frozenAt: option.now().getTime() }) : new SimClock({ source: () => option.now().getTime() })
}
