import { InvalidArgumentError } from 'commander'
import type { AreaId } from '../areas/area.js'
import { ALL_AREAS } from '../simulator/create-simulator.js'

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
