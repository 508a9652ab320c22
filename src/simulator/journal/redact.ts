import { isSecretEntry, isSecretHeader, isSecretKey, isSecretQueryParam, looksLikeSecretValue, redactSecretValues } from '../../kernel/http/secret-key.js'

/** What a redacted value reads as. */
export const REDACTED = '[redacted]'

export { isSecretKey }

/**
 * A copy of a JSON value with the value of every secret key, and every string
 * that looks like a credential (`Bearer …`, a JWT) whatever its key, replaced
 * by `"[redacted]"`, at any depth (the one rule: `isSecretEntry`).
 *
 * @example
 * redactJson({ user: { password_confirmation: 'x' }, debug: 'Bearer eyJ…' }) // { user: { password_confirmation: '[redacted]' }, debug: '[redacted]' }
 */
export function redactJson(value: unknown): unknown {
  if (typeof value === 'string') return looksLikeSecretValue(value) ? REDACTED : value
  if (Array.isArray(value)) return value.map(redactJson)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    // defineProperty: a `__proto__` key from parsed JSON stays a plain key.
    Object.defineProperty(out, key, { value: isSecretEntry(key, inner) ? REDACTED : redactJson(inner), enumerable: true, writable: true, configurable: true })
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
 * text is JSON-like (`"password": "x"`) or form-encoded (`password=x`, as a
 * query: `key=` too), and so is every credential in it (`Bearer …`, a JWT),
 * whatever its key or in plain text.
 *
 * @example
 * redactJsonText('{"password":"hunter2","na') // '{"password":"[redacted]","na'
 * redactJsonText('user=ada&password=hunter2') // 'user=ada&password=[redacted]'
 */
export function redactJsonText(text: string): string {
  const pairs = text
    .replace(JSON_PAIR, (pair, key: string, colon: string, value: string) =>
      isSecretKey(key) || (value.startsWith('"') && looksLikeSecretValue(unquoted(value))) ? `"${key}"${colon}"${REDACTED}"` : pair,
    )
    .replace(FORM_PAIR, (pair, before: string, key: string, value: string) =>
      isSecretQueryParam(safeDecode(key)) || looksLikeSecretValue(safeDecode(value)) ? `${before}${key}=${REDACTED}` : pair,
    )
  return redactSecretValues(pairs, REDACTED)
}

/** A JSON string literal's text, its closing quote perhaps cut off. */
function unquoted(literal: string): string {
  return literal.slice(1, literal.length > 1 && literal.endsWith('"') ? -1 : undefined)
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * Request headers as a plain object with secrets redacted: secret headers
 * (`isSecretHeader`) and any header whose value looks like a credential;
 * `Authorization` keeps its scheme (`Bearer [redacted]`) so a test can still
 * see how it was sent.
 *
 * @example
 * redactHeaders(new Headers({ authorization: 'Bearer eyJ…' })) // { authorization: 'Bearer [redacted]' }
 */
export function redactHeaders(headers: { entries(): Iterable<[string, string]> }): Record<string, string> {
  const out: Record<string, string> = {}
  // Sorted, as Fetch `Headers` iterate, so every way in journals the same object.
  for (const [name, value] of [...headers.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (!isSecretHeader(name)) out[name] = looksLikeSecretValue(value) ? REDACTED : value
    else if (name === 'authorization' || name === 'proxy-authorization') out[name] = value.includes(' ') ? `${value.slice(0, value.indexOf(' '))} ${REDACTED}` : REDACTED
    else out[name] = REDACTED
  }
  return out
}

/**
 * A URL with the values of secret query parameters (`?token=…`, `?key=…`,
 * `X-Amz-*`: `isSecretQueryParam`) and of any that look like a credential redacted.
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
  // Every pair kept in its place (a name given twice stays twice), only secret values replaced.
  const pairs = [...parsed.searchParams].map(([key, value]): [string, string] => {
    if (!isSecretQueryParam(key) && !looksLikeSecretValue(value)) return [key, value]
    changed = true
    return [key, REDACTED]
  })
  if (!changed) return url
  parsed.search = new URLSearchParams(pairs).toString()
  return parsed.href
}
