import { readFileSync } from 'node:fs'
import { InvalidArgumentError } from 'commander'
import type { AreaId } from '../areas/registry.js'
import { MAX_TOKEN_TTL } from '../areas/general/index.js'
import { parseDuration } from '../kernel/time/sim-clock.js'
import { ALL_AREAS } from '../areas/registry.js'
import type { FaultRule } from '../simulator/fault-rule.js'
import { parseFaultText, parseLatencyText } from '../simulator/fault-text.js'

/** `--port`: an integer 0..65535 (0 picks a free port). */
export function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError('expected an integer from 0 to 65535.')
  return Number(value)
}

/** `--seed`: any safe integer. */
export function parseSeed(value: string): number {
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('expected an integer.')
  return Number(value)
}

/** `--clock`: an ISO 8601 instant, or `system` for the real clock. */
export function parseClock(value: string): string {
  if (value === 'system') return value
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new InvalidArgumentError('expected an ISO 8601 instant such as 2026-01-01T00:00:00Z, or "system".')
  }
  return value
}

/** `--root` (repeatable): collects known area ids. */
export function collectArea(value: string, previous: AreaId[] = []): AreaId[] {
  const area = parseArea(value)
  return previous.includes(area) ? previous : [...previous, area]
}

/** An area by id (`ledger`) or letter (`E`). */
export function parseArea(value: string): AreaId {
  const area = ALL_AREAS.find((candidate) => candidate.id === value || candidate.letter === value.toUpperCase())
  if (!area) throw new InvalidArgumentError(`unknown area; expected one of ${ALL_AREAS.map((a) => a.id).join(', ')}.`)
  return area.id
}

/** `--server`: the origin the document names, e.g. `http://127.0.0.1:4000`. */
export function parseOrigin(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidArgumentError('expected an absolute URL such as http://127.0.0.1:4000.')
  }
  if (!/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash) {
    throw new InvalidArgumentError('expected an http(s) origin without a path, such as http://127.0.0.1:4000.')
  }
  return url.origin
}

/** `--token-ttl`: Area D token lifetime, whole seconds (`900`) or a duration (`15m`, `2h`). */
export function parseTokenTtl(value: string): number {
  let ms: number
  try {
    ms = /^\d+$/.test(value) ? Number(value) * 1000 : parseDuration(value)
  } catch {
    ms = Number.NaN
  }
  const seconds = ms / 1000
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > MAX_TOKEN_TTL) {
    throw new InvalidArgumentError(`expected whole seconds from 1 to ${MAX_TOKEN_TTL}, or a duration such as 15m or 2h.`)
  }
  return seconds
}

/** `--jwt-secret`: any non-empty text, used as the HS256 key as given. */
export function parseJwtSecret(value: string): string {
  if (value === '' || value.length > 4096) throw new InvalidArgumentError('expected a non-empty secret of at most 4096 characters.')
  return value
}

/** `--journal-size`, `--max-worlds`: an integer of 0 or more. */
export function parseCount(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('expected an integer of 0 or more.')
  return Number(value)
}

/** `--sensor-window`, `--ingest-window`: ingested points kept (D15 window), an integer of 0 or more. */
export function parsePoints(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('expected a number of points, an integer of 0 or more (0 keeps none, counts only).')
  return Number(value)
}

/** `--fault` (repeatable): words like `POST /core/users 503 p=0.5`, JSON, or `@file.json` holding a rule or a list. */
export function collectFault(value: string, previous: FaultRule[] = []): FaultRule[] {
  let text = value
  if (value.startsWith('@')) {
    try {
      text = readFileSync(value.slice(1), 'utf8')
    } catch (error) {
      throw new InvalidArgumentError(`cannot read ${value.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`)
    }
  }
  return [...previous, ...rethrown(() => parseFaultText(text))]
}

/** `--latency`: milliseconds (`150`) or a range (`50..200`). */
export function parseLatency(value: string): number | [number, number] {
  return rethrown(() => parseLatencyText(value))
}

/** `--world-idle`: a duration such as `30m` or milliseconds. */
export function parseIdle(value: string): number {
  const ms = rethrown(() => parseDuration(value))
  if (ms <= 0) throw new InvalidArgumentError('expected a positive duration such as 30m.')
  return ms
}

/** `--headers-timeout`, `--request-timeout`: a duration such as `10s` or milliseconds, from 1 ms to 24 h. */
export function parseTimeout(value: string): number {
  const ms = rethrown(() => parseDuration(value))
  if (!Number.isSafeInteger(ms) || ms < 1 || ms > 86_400_000) throw new InvalidArgumentError('expected a duration from 1ms to 24h, such as 10s or 500 (ms).')
  return ms
}

/** `--control-token`: the shared secret of the control API; printable, no spaces. */
export function parseControlToken(value: string): string {
  if (!/^[\x21-\x7e]{1,4096}$/.test(value)) throw new InvalidArgumentError('expected 1 to 4096 printable ASCII characters without spaces.')
  return value
}

/** Commander reports an `InvalidArgumentError` as a one-line usage error. */
function rethrown<T>(parse: () => T): T {
  try {
    return parse()
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error))
  }
}
