/** Percent-decodings checked: a path still changing after this many is refused as it is. */
const DECODINGS = 4

/** An encoded `/` or `\`: a server that decodes it before resolving dot-segments sees a separator. */
const ENCODED_SEPARATOR = /%(?:2f|5c)/i

/**
 * Whether a proxied request's path (the part under the area's prefix) could
 * take the upstream above its base path (issue 43): it has an encoded slash or
 * backslash (`%2F`, `%5C`), a backslash, or a segment that is `.` or `..` once
 * decoded (`%2e%2e`), also with path parameters (`..;x`, which Tomcat and Jetty
 * read as `..`). The same is checked after each further decoding, so a
 * double-encoded `%252F` or `%252e%252e` cannot climb through a chain of
 * servers that decode once each either. A literal `%` (`%25`) stays allowed.
 *
 * @example
 * leavesBasePath('/..%2Fbilling-internal/x') // true
 * leavesBasePath('/api/v1.2/users/a%20b')    // false
 */
export function leavesBasePath(rest: string): boolean {
  let text = rest
  for (let round = 0; round < DECODINGS; round++) {
    if (text.includes('\\') || ENCODED_SEPARATOR.test(text) || text.split('/').some(isDotSegment)) return true
    if (!text.includes('%')) return false
    const decoded = percentDecoded(text)
    if (decoded === text) return false
    text = decoded
  }
  return true
}

/** `.` or `..`, written plain or percent-encoded, path parameters (`;…`) aside. */
function isDotSegment(segment: string): boolean {
  const name = percentDecoded(segment).replace(/;.*$/s, '')
  return name === '.' || name === '..'
}

/** Each `%XX` as the byte it names (as a Latin-1 character): never throws, whatever follows a `%`. */
function percentDecoded(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
}
