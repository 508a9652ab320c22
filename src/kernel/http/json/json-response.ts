import type { Reply } from '../reply.js'

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * A JSON reply. The content type carries the charset; extra header names are
 * lowercased, as Fetch `Headers` would, so every way out writes the same bytes.
 *
 * @example
 * return json({ id: 'u1' }, 201, { Location: '/users/u1' })
 */
export function json(body: unknown, status = 200, headers?: Record<string, string>): Reply {
  return { status, headers: withExtra({ 'content-type': JSON_TYPE }, headers), body: JSON.stringify(body) }
}

/**
 * A JSON reply from text already serialized with `JSON.stringify` (e.g. list
 * items cached per record), so a hot list does not serialize the same records
 * again on every request.
 *
 * @example
 * return jsonText(`[${items.map((item) => cached(item)).join(',')}]`, 200, { 'X-Total-Count': '2' })
 */
export function jsonText(text: string, status = 200, headers?: Record<string, string>): Reply {
  return { status, headers: withExtra({ 'content-type': JSON_TYPE }, headers), body: text }
}

/**
 * A reply with no body, e.g. `204` after a delete.
 *
 * @example
 * return empty(204)
 */
export function empty(status = 204, headers?: Record<string, string>): Reply {
  return { status, headers: withExtra({}, headers), body: null }
}

function withExtra(base: Record<string, string>, extra: Record<string, string> | undefined): Record<string, string> {
  if (extra) for (const name of Object.keys(extra)) base[name.toLowerCase()] = extra[name]!
  return base
}
