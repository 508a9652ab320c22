const DAY_MS = 86_400_000

/**
 * Formats epoch milliseconds like `Date.prototype.toISOString`, about ten
 * times faster for runs of instants on the same day: the date part is built
 * once per day and the time of day with arithmetic. Exporting a full window
 * (500,000 points) took 0.55 s in `toISOString` alone. One per export: it
 * remembers the last day it formatted.
 *
 * @example
 * new InstantFormatter().format(Date.UTC(2026, 0, 1, 12)) // '2026-01-01T12:00:00.000Z'
 */
export class InstantFormatter {
  #day = Number.NaN
  #prefix = ''

  format(ms: number): string {
    const day = Math.floor(ms / DAY_MS)
    if (day !== this.#day) {
      const iso = new Date(day * DAY_MS).toISOString()
      // Years outside 0000–9999 are written with a sign and six digits; leave those to Date.
      if (iso.length !== 24) return new Date(ms).toISOString()
      this.#day = day
      this.#prefix = iso.slice(0, 11)
    }
    let rest = ms - day * DAY_MS
    const millis = rest % 1000
    rest = (rest - millis) / 1000
    const seconds = rest % 60
    rest = (rest - seconds) / 60
    const minutes = rest % 60
    const hours = (rest - minutes) / 60
    return `${this.#prefix}${two(hours)}:${two(minutes)}:${two(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`
  }
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n)
}
