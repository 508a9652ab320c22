import { ApiError } from '../../kernel/errors/api-error.js'
import type { AreaId } from '../../areas/registry.js'

/** Why an upstream gave no answer, in a few words, from the system's error code. */
function cause(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const known: Record<string, string> = {
    ECONNREFUSED: 'the connection was refused',
    ECONNRESET: 'the connection was closed before an answer',
    ENOTFOUND: 'the host name is unknown',
    EAI_AGAIN: 'the host name could not be looked up',
    EHOSTUNREACH: 'the host is unreachable',
    ENETUNREACH: 'the network is unreachable',
    EPIPE: 'the connection was closed while the request was sent',
    HPE_INVALID_CONSTANT: 'it did not answer HTTP',
  }
  if (code !== undefined && known[code]) return known[code]
  if (code?.startsWith('HPE_')) return 'its answer was not valid HTTP'
  if (code?.includes('CERT') || code?.includes('SSL') || code?.includes('TLS')) return `its TLS certificate was refused (${code})`
  return code ?? 'the connection failed'
}

/**
 * 502 `bad_gateway`: the upstream of a proxied area could not be reached or
 * broke off before answering. Names the upstream host (never its path or query).
 *
 * @example
 * badGateway('admin', new URL('http://127.0.0.1:9'), Object.assign(new Error(), { code: 'ECONNREFUSED' }))
 */
export function badGateway(area: AreaId, upstream: URL, error: unknown): ApiError {
  return new ApiError(502, 'bad_gateway', `The upstream of area "${area}" at ${upstream.host} could not be reached: ${cause(error)}.`, { extra: { upstream: upstream.host } })
}

/** 504 `gateway_timeout`: the upstream of a proxied area stayed silent for the proxy timeout. */
export function gatewayTimeout(area: AreaId, upstream: URL, timeoutMs: number): ApiError {
  const after = timeoutMs >= 1000 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`
  return new ApiError(504, 'gateway_timeout', `The upstream of area "${area}" at ${upstream.host} did not answer within ${after}.`, { extra: { upstream: upstream.host } })
}

/**
 * 400 `invalid_path`: a proxied request's path could climb above the
 * upstream's base path (`%2F`, `%5C`, an encoded dot-segment); nothing is
 * sent upstream.
 *
 * @example
 * if (leavesBasePath(rest)) return errorResponse(pathLeavesBase('admin'))
 */
export function pathLeavesBase(area: AreaId): ApiError {
  return new ApiError(
    400,
    'invalid_path',
    `The path has an encoded slash or backslash (%2F, %5C) or a segment that decodes to "." or "..": a request to the proxied area "${area}" must stay under its upstream's base path, so it was not sent.`,
  )
}
