import type { ResponseHeader } from '../http/response-headers.js'

/** What the document says about one D9 error code. */
export interface ErrorCodeInfo {
  status: number
  /** When the code is answered, for the OpenAPI document. */
  description: string
  /** A header every answer with this code carries. */
  header?: ResponseHeader
}

/**
 * Every stable error code the simulator answers (D9, D6), with its status.
 * Routes name the codes they can answer (`errors: ['not_found']`); the OpenAPI
 * document groups them by status. A new code is one line here.
 *
 * @example
 * ERROR_CODES.not_found.status // 404
 */
export const ERROR_CODES = {
  validation_failed: { status: 400, description: 'The request is invalid; `details` lists every problem (D11).' },
  invalid_json: { status: 400, description: 'The body is not valid JSON.' },
  unauthorized: { status: 401, description: 'No `Authorization: Bearer` header (D7).', header: 'WWW-Authenticate' },
  invalid_token: { status: 401, description: 'The token is malformed, badly signed or no longer valid (D7).', header: 'WWW-Authenticate' },
  token_expired: { status: 401, description: 'The token has expired by the simulator clock (D7).', header: 'WWW-Authenticate' },
  invalid_credentials: { status: 401, description: 'Wrong username or password; never says which (D6).' },
  invalid_signature: { status: 401, description: 'The signature was not made by the delegator, in the `eip191` or `eip712` signature mode (D23).' },
  account_inactive: { status: 403, description: 'The account is inactive (D6).' },
  host_not_allowed: {
    status: 403,
    description:
      'The `Host` header is not localhost, an IP address, the address the server listens on or one given with `--allowed-host` (D27, against DNS rebinding; the HTTP server only).',
  },
  origin_not_allowed: { status: 403, description: "The `Origin` is not a loopback origin, the server's own or one given with `--cors-origin` (D27; the HTTP server only)." },
  site_not_allowed: {
    status: 403,
    description:
      'A control request without `Origin` that the browser marked `Sec-Fetch-Site: cross-site` or `same-site`: a link, image or embed on a page of another origin (D27; the HTTP server only).',
  },
  not_found: { status: 404, description: 'Nothing with that id or name, or an unknown world in `x-mock-world` / the `mock-world` cookie.' },
  method_not_allowed: { status: 405, description: 'The path exists but not with this method; `Allow` lists the methods.', header: 'Allow' },
  conflict: { status: 409, description: 'Conflicts with existing data, e.g. a taken username (D5).' },
  payload_too_large: { status: 413, description: 'The body is over the size limit (D11) or the batch over its limit (D15).' },
  world_too_large: { status: 413, description: 'The isolated world asked for would hold more records than one world may (`--max-world-records`); nothing was created or changed.' },
  unsupported_media_type: { status: 415, description: 'The body is declared as something other than JSON (D11).' },
  validator_not_active: { status: 422, description: 'The validator exists but is inactive or jailed, so it takes no delegations (D23).' },
  headers_too_large: { status: 431, description: 'The request line and headers are over what the HTTP server accepts (16 KiB).' },
  invalid_path: { status: 400, description: 'The request path has `.` or `..` segments or backslashes (the HTTP server only).' },
  bad_request: { status: 400, description: 'The request is not valid HTTP, or its body was cut off by the client (the HTTP server only).' },
  request_timeout: { status: 408, description: "The request line and headers, or the whole request, did not arrive within the HTTP server's timeouts; the connection is closed." },
  too_many_requests: { status: 429, description: 'An injected rate-limit fault; retry after `Retry-After` seconds.', header: 'Retry-After' },
  internal_error: { status: 500, description: 'A bug in the simulator, or an injected fault; nothing was changed.' },
  bad_gateway: {
    status: 502,
    description: 'An injected fault (nothing was changed), or the upstream of a proxied area (`serve --proxy`) could not be reached; `upstream` names its host.',
  },
  service_unavailable: { status: 503, description: 'An injected fault or maintenance (D9).', header: 'Retry-After' },
  store_unavailable: {
    status: 503,
    description:
      'The store that keeps the worlds (Redis with `serve --store`, or the state file) did not answer or could not be written within a few seconds; retry after `Retry-After` seconds. Like any timeout, a write answered so may still have been kept.',
    header: 'Retry-After',
  },
  gateway_timeout: {
    status: 504,
    description: 'An injected fault (nothing was changed), or the upstream of a proxied area (`serve --proxy`) stayed silent for the proxy timeout; `upstream` names its host.',
  },
} as const satisfies Record<string, ErrorCodeInfo>

/** A D9 error code. */
export type ErrorCode = keyof typeof ERROR_CODES

/** Codes every route can answer: a bug is a 500 wherever it happens; a request naming an unknown world is a 404. */
export const ANY_ROUTE_CODES: readonly ErrorCode[] = ['internal_error', 'not_found']

/** Codes an injected fault or maintenance answers most often on any area route (D9), each listed by name in the document; a fault may answer any other 400-599 status too, under the document's 4XX/5XX responses. */
export const FAULT_CODES: readonly ErrorCode[] = ['too_many_requests', 'internal_error', 'bad_gateway', 'service_unavailable', 'gateway_timeout']
