import { InvalidArgumentError, Option } from 'commander'
import type { AreaId } from '../areas/area.js'
import { parseDuration } from '../kernel/sim-clock.js'
import { DEFAULT_PROXY_TIMEOUT } from '../node/proxy-targets.js'
import { parseArea } from './options.js'

/** `serve --proxy <area>=<url>` (repeatable): areas answered by a real backend. */
export function proxyOption(): Option {
  return new Option('--proxy <area=url>', 'send one area\'s requests to a real backend (repeatable), e.g. admin=https://users.example.com/api; the other areas stay simulated').argParser(collectProxy)
}

/** `serve --proxy-timeout <duration>`. */
export function proxyTimeoutOption(): Option {
  return new Option('--proxy-timeout <duration>', `time a proxied upstream may stay silent, then 504 gateway_timeout (default: ${DEFAULT_PROXY_TIMEOUT / 1000}s)`).argParser(parseProxyTimeout)
}

function collectProxy(value: string, previous: Partial<Record<AreaId, string>> = {}): Partial<Record<AreaId, string>> {
  const at = value.indexOf('=')
  if (at <= 0) throw new InvalidArgumentError('expected <area>=<url>, e.g. admin=https://users.example.com/api.')
  const area = parseArea(value.slice(0, at))
  const url = value.slice(at + 1)
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new InvalidArgumentError(`expected an absolute http(s) URL after "${value.slice(0, at)}=", e.g. https://users.example.com/api.`)
  }
  if (!/^https?:$/.test(parsed.protocol) || parsed.search || parsed.hash) throw new InvalidArgumentError('expected an http(s) URL without query or fragment.')
  if (previous[area] !== undefined) throw new InvalidArgumentError(`area ${area} is already proxied to ${previous[area]}.`)
  return { ...previous, [area]: url }
}

function parseProxyTimeout(value: string): number {
  let ms: number
  try {
    ms = parseDuration(value)
  } catch {
    ms = Number.NaN
  }
  if (!Number.isSafeInteger(ms) || ms < 1 || ms > 3_600_000) throw new InvalidArgumentError('expected a duration from 1ms to 1h, such as 30s or 500 (ms).')
  return ms
}
