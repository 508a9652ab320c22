import { ApiError } from '../../errors/api-error.js'
import { payloadTooLarge } from '../../errors/payload-too-large.js'
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js'
import { outsideHold, type RequestHold } from '../request-hold.js'
import type { SimRequest } from '../sim-request.js'

/** Default request body limit (D11): 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024

/**
 * Largest body limit one may set (`limits.bodyBytes`, `--body-limit`): 256 MiB.
 * A body is read whole as text and parsed; far beyond this a single request
 * nears V8's longest string and takes gigabytes to parse.
 */
export const MAX_BODY_LIMIT = 256 * 1024 * 1024

export interface JsonBodyOptions {
  /** Largest accepted body in bytes (D11). */
  limit: number
  /**
   * Parser of the body text, `JSON.parse` by default. One that keeps the raw
   * text of numbers (Area E's amounts) goes here, so every D11 check stays in
   * one place; a `SyntaxError` it throws becomes 400 `invalid_json`.
   */
  parse?: (text: string) => unknown
  /** The request's hold on its world, let go while the body arrives (the client may be slow; a reset must not wait for it). */
  hold?: RequestHold | undefined
}

/**
 * Reads a request body as JSON, enforcing D11: over `limit` bytes is 413
 * (checked against `Content-Length` first, then while streaming, so a huge body
 * is never buffered whole), a non-JSON or missing content type is 415,
 * malformed JSON is 400 `invalid_json`, an empty body or one nested deeper than
 * `MAX_JSON_DEPTH` is 400 `validation_failed`.
 *
 * @example
 * const body = await readJsonBody(request, { limit: 1024 * 1024 })
 */
export async function readJsonBody(request: SimRequest, options: JsonBodyOptions): Promise<unknown> {
  const contentType = request.headers.get('content-type')
  refuseNonJson(contentType)
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > options.limit) throw payloadTooLarge(options.limit)

  // The client may take its time: a reset must not wait for it.
  const text = await outsideHold(options.hold, () => request.readText(options.limit))
  if (text.trim() === '') {
    throw new ApiError(400, 'validation_failed', 'The request body is empty; a JSON body is required.', {
      details: [{ path: '', message: 'is required: send a JSON body' }],
    })
  }
  // A body must say it is JSON (D11): a page on another site can send an undeclared body without asking the browser first.
  if (contentType === null) throw new ApiError(415, 'unsupported_media_type', 'The request body has no Content-Type; send it as JSON with "Content-Type: application/json".')
  let body: unknown
  try {
    body = options.parse ? options.parse(text) : JSON.parse(text)
  } catch (error) {
    throw new ApiError(400, 'invalid_json', `The request body is not valid JSON: ${syntaxReason(error)}`)
  }
  // Whatever reads the body next (validation, the command log, a bundle) may walk it: no reader meets a depth it cannot walk.
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new ApiError(400, 'validation_failed', `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`, {
      details: [{ path: '', message: `nests deeper than ${MAX_JSON_DEPTH} levels` }],
    })
  }
  return body
}

/**
 * The parser's complaint without the body text V8 quotes in it (`Unexpected
 * token 'p', "password=hunter2" is not valid JSON`): a body may hold a secret,
 * and an error message must never show one.
 */
function syntaxReason(error: unknown): string {
  if (!(error instanceof SyntaxError)) return 'unparseable.'
  const quoted = error.message.indexOf('"')
  return `${(quoted === -1 ? error.message : error.message.slice(0, quoted)).replace(/[\s,]+$/, '')}.`
}

/**
 * Refuses a request declared as something other than JSON (D11), also on a
 * `POST` that reads no body: `text/plain`, form and multipart bodies are what a
 * page on another site can send without a CORS preflight, so none of them may
 * change anything.
 *
 * @example
 * refuseNonJson(request.headers.get('content-type')) // throws 415 for 'text/plain'
 */
export function refuseNonJson(contentType: string | null): void {
  if (contentType !== null && !isJsonContentType(contentType)) {
    throw new ApiError(415, 'unsupported_media_type', `Expected a JSON body (Content-Type: application/json), got "${contentType.slice(0, 200)}".`)
  }
}

function isJsonContentType(value: string): boolean {
  const mime = value.split(';', 1)[0]!.trim().toLowerCase()
  return mime === 'application/json' || (mime.startsWith('application/') && mime.endsWith('+json'))
}
