import { keepBodyText } from './body-text.js'

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * A JSON `Response`. Built by hand rather than with `Response.json` so the
 * content type carries the charset and extra headers can be merged cheaply.
 *
 * @example
 * return json({ id: 'u1' }, 201, { Location: '/users/u1' })
 */
export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  const init: Record<string, string> = { 'content-type': JSON_TYPE }
  if (headers) Object.assign(init, headers)
  const text = JSON.stringify(body)
  return keepBodyText(new Response(text, { status, headers: init }), text)
}

/** A response with no body, e.g. `204` after a delete. */
export function empty(status = 204, headers?: Record<string, string>): Response {
  return new Response(null, headers ? { status, headers } : { status })
}
