import { isIP } from 'node:net'

/**
 * `true` when binding `host` keeps the server on this machine: `localhost`,
 * 127.0.0.0/8 or `::1`. Anything else (`0.0.0.0`, `::`, a LAN address, a
 * host name) may be reachable from the network.
 *
 * @example
 * isLoopbackHost('127.0.0.1') // true
 * isLoopbackHost('0.0.0.0')   // false
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (bare === 'localhost') return true
  if (isIP(bare) === 4) return bare.startsWith('127.')
  if (isIP(bare) === 6) return bare === '::1' || bare === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(bare)
  return false
}
