/** An ISO instant as `2026-01-01 00:00:00` (UTC, like the simulator's clock), or `—`. */
export function instant(iso: string | null | undefined): string {
  if (!iso) return '—'
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().replace('T', ' ').slice(0, 19)
}

/** A long id or hash shortened for a table cell, keeping both ends: `0x4939…247e`. */
export function short(text: string, keep = 6): string {
  return text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-4)}`
}

/** A token amount in base units (a decimal string) as whole tokens: `2500` for 2500e18 with 18 decimals. */
export function units(amount: string, decimals = 18): string {
  if (!/^\d+$/.test(amount)) return amount
  const padded = amount.padStart(decimals + 1, '0')
  const whole = padded.slice(0, padded.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const fraction = padded.slice(padded.length - decimals).replace(/0+$/, '')
  return fraction ? `${whole}.${fraction.slice(0, 6)}` : whole
}

/** A JSON value as indented text for a `<pre>`. */
export function pretty(value: unknown): string {
  if (value === null || value === undefined) return '(none)'
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2)
}

/**
 * A count with its noun, singular for one: `1 command`, `3 commands`, `0 rows`.
 *
 * @example
 * counted(1, 'command') // '1 command'
 * counted(2, 'entry', 'entries') // '2 entries'
 */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`
}
