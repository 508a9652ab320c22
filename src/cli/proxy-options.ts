import { InvalidArgumentError, Option } from 'commander'
import type { AreaId } from '../areas/registry.js'
import { parseArea } from './options.js'
import { listValues } from './env-options.js'

/** Where a value of `--proxy` starts in a comma-separated list: `area=` (a comma inside a URL stays). */
const NEXT_PROXY = /^\s*[A-Za-z]+=/

/**
 * `serve --proxy <area>=<url>` (repeatable): areas answered by a real backend.
 * The flag only splits `area=url`; the URL itself is checked once, by
 * `startServer` (src/node/proxy/proxy-targets.ts), as for the library's `proxy` option.
 * One value may list several, `admin=…,core=…`, as its variable does.
 */
export function proxyOption(): Option {
  return new Option(
    '--proxy <area=url>',
    "send one area's requests to a real backend (repeatable), e.g. admin=https://users.example.com/api; the other areas stay simulated",
  ).argParser((value: string, previous?: Partial<Record<AreaId, string>>) => listValues(value, NEXT_PROXY).reduce(collectProxy, previous ?? {}))
}

function collectProxy(previous: Partial<Record<AreaId, string>>, value: string): Partial<Record<AreaId, string>> {
  const at = value.indexOf('=')
  if (at <= 0) throw new InvalidArgumentError('expected <area>=<url>, e.g. admin=https://users.example.com/api.')
  const area = parseArea(value.slice(0, at))
  if (previous[area] !== undefined) throw new InvalidArgumentError(`area ${area} is already proxied to ${previous[area]}.`)
  return { ...previous, [area]: value.slice(at + 1) }
}
