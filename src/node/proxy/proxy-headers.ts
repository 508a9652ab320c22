import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'

/** Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection, so a proxy never passes them on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'])

/** The names a `Connection` header lists: hop-by-hop too. */
function connectionOptions(value: string | string[] | undefined): Set<string> {
  const text = Array.isArray(value) ? value.join(',') : (value ?? '')
  return new Set(
    text
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  )
}

/**
 * The request headers sent upstream: as the client sent them, minus the
 * hop-by-hop ones and `Host` (the upstream's own is set from its URL), and
 * minus an `Authorization` that `isControlToken` recognises: the control
 * token is this server's secret, never the upstream's.
 *
 * @example
 * upstreamRequestHeaders({ host: 'localhost:4000', connection: 'keep-alive', authorization: 'Bearer x' }) // { authorization: 'Bearer x' }
 */
export function upstreamRequestHeaders(headers: IncomingHttpHeaders, isControlToken?: (authorization: string | undefined) => boolean): OutgoingHttpHeaders {
  const dropped = connectionOptions(headers.connection)
  if (isControlToken?.(headers.authorization)) dropped.add('authorization')
  const out: OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'host' || HOP_BY_HOP.has(name) || dropped.has(name)) continue
    out[name] = value
  }
  return out
}

/**
 * The response headers sent back: the upstream's, minus hop-by-hop ones and
 * its CORS headers, which are replaced by the server's own (`cors`): the
 * browser talks to this server, so this server's CORS policy is the one that
 * applies. Repeated headers (`Set-Cookie`) stay repeated.
 *
 * @example
 * downstreamHeaders(upstream.rawHeaders, verdict.cors)
 */
export function downstreamHeaders(rawHeaders: readonly string[], cors: Record<string, string>): OutgoingHttpHeaders {
  const pairs: Array<[string, string]> = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) pairs.push([rawHeaders[i]!.toLowerCase(), rawHeaders[i + 1]!])
  const dropped = connectionOptions(pairs.filter(([name]) => name === 'connection').map(([, value]) => value))
  const out: OutgoingHttpHeaders = {}
  for (const [name, value] of pairs) {
    if (HOP_BY_HOP.has(name) || dropped.has(name) || name.startsWith('access-control-') || (name === 'vary' && cors.vary !== undefined)) continue
    const existing = out[name]
    out[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [String(existing), value]
  }
  for (const [name, value] of Object.entries(cors)) {
    // The upstream's own Vary stays, with Origin added.
    const vary = name === 'vary' ? pairs.filter(([other]) => other === 'vary').map(([, text]) => text) : []
    out[name] = vary.length > 0 ? [...vary, value].join(', ') : value
  }
  return out
}
