import { isSecretKey } from '../kernel/http/secret-key.js'

/** What a redacted value reads as. */
export const REDACTED = '[redacted]'

export { isSecretKey }

/**
 * A copy of a JSON value with the value of every secret key replaced by
 * `"[redacted]"`, at any depth.
 *
 * @example
 * redactJson({ user: { password: 'x' } }) // { user: { password: '[redacted]' } }
 */
export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    // defineProperty: a `__proto__` key from parsed JSON stays a plain key.
    Object.defineProperty(out, key, { value: isSecretKey(key) ? REDACTED : redactJson(inner), enumerable: true, writable: true, configurable: true })
  }
  return out
}

/** `"key": value` pairs in JSON text, including an unterminated string at the end of truncated text. */
const JSON_PAIR = /"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*"?|-?[\d.eE+-]+|true|false|null)/g

/** `key=value` pairs as in a form-encoded body or a query string (`a=1&password=x`). */
const FORM_PAIR = /(^|[?&;\s])([^=&;\s?]+)=([^&;\s]*)/g

/**
 * Redacts body text that cannot be parsed (truncated, or not JSON): the
 * scalar value of every secret key is replaced, at any depth, whether the
 * text is JSON-like (`"password": "x"`) or form-encoded (`password=x`).
 *
 * @example
 * redactJsonText('{"password":"hunter2","na') // '{"password":"[redacted]","na'
 * redactJsonText('user=ada&password=hunter2') // 'user=ada&password=[redacted]'
 */
export function redactJsonText(text: string): string {
  return text
    .replace(JSON_PAIR, (pair, key: string, colon: string) => (isSecretKey(key) ? `"${key}"${colon}"${REDACTED}"` : pair))
    .replace(FORM_PAIR, (pair, before: string, key: string) => (isSecretKey(safeDecode(key)) ? `${before}${key}=${REDACTED}` : pair))
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * Request headers as a plain object with secrets redacted; `Authorization`
 * keeps its scheme (`Bearer [redacted]`) so a test can still see how it was sent.
 *
 * @example
 * redactHeaders(new Headers({ authorization: 'Bearer eyJ…' })) // { authorization: 'Bearer [redacted]' }
 */
export function redactHeaders(headers: { entries(): Iterable<[string, string]> }): Record<string, string> {
  const out: Record<string, string> = {}
  // Sorted, as Fetch `Headers` iterate, so every way in journals the same object.
  for (const [name, value] of [...headers.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (!isSecretKey(name)) out[name] = value
    else if (name === 'authorization' || name === 'proxy-authorization') out[name] = value.includes(' ') ? `${value.slice(0, value.indexOf(' '))} ${REDACTED}` : REDACTED
    else out[name] = REDACTED
  }
  return out
}

/**
 * A URL with the values of secret query parameters (`?token=…`) redacted.
 *
 * @example
 * redactUrl('http://x/a?token=abc&page=2') // 'http://x/a?token=%5Bredacted%5D&page=2'
 */
export function redactUrl(url: string): string {
  if (!url.includes('?')) return url
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return url
  }
  let changed = false
  for (const key of [...parsed.searchParams.keys()]) {
    if (isSecretKey(key)) {
      parsed.searchParams.set(key, REDACTED)
      changed = true
    }
  }
  return changed ? parsed.href : url
}
