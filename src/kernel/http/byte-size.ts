import { ConfigError } from '../errors/config-error.js'

/** What a size may be, as messages say it. */
export const SIZE_EXPECTED = 'expected bytes, or a number with kb, mb or gb (e.g. "512kb", "1.5mb"; 1kb = 1024 bytes)'

/** Binary units, as body-parser and nginx read them: `1kb` is 1024 bytes. */
const UNIT_BYTES: Record<string, number> = { b: 1, kb: 1024, kib: 1024, mb: 1024 ** 2, mib: 1024 ** 2, gb: 1024 ** 3, gib: 1024 ** 3 }

/** A number (a sign and decimals pass, for the option's range check to name the range), then an optional unit. */
const SIZE_PATTERN = /^\s*(-?\d+(?:\.\d+)?)\s*(b|kb|kib|mb|mib|gb|gib)?\s*$/i

/**
 * A size as the CLI takes it (`--body-limit`): bytes (`1048576`) or a number
 * with a binary unit (`512kb`, `1.5mb`, also `KiB`, `MiB`, `gb`; any case),
 * rounded down to whole bytes. Text that is no size throws a `ConfigError`
 * naming the value; the option's schema checks the range (and that bare bytes
 * are whole) afterwards.
 *
 * @example
 * parseByteSize('512kb') // 524288
 * parseByteSize('1.5MB') // 1572864
 */
export function parseByteSize(text: string): number {
  const match = SIZE_PATTERN.exec(text)
  if (!match) throw new ConfigError(`Invalid size "${text}": ${SIZE_EXPECTED}.`)
  const [, amount, unit] = match
  return unit === undefined ? Number(amount) : Math.floor(Number(amount) * UNIT_BYTES[unit.toLowerCase()]!)
}

/**
 * A byte count the way people write it: whole mebibytes as `mb`, whole
 * kibibytes as `kb`, else bytes (what `--help` shows as a default).
 *
 * @example
 * formatByteSize(1048576) // '1mb'
 * formatByteSize(1500) // '1500 bytes'
 */
export function formatByteSize(bytes: number): string {
  if (bytes > 0 && bytes % 1024 ** 2 === 0) return `${bytes / 1024 ** 2}mb`
  if (bytes > 0 && bytes % 1024 === 0) return `${bytes / 1024}kb`
  return `${bytes} bytes`
}
