/**
 * A regular expression's source as a JSON Schema `pattern`: without the `\/`
 * escapes `RegExp.prototype.source` adds (`/^\//.source` is `^\/`). A slash
 * needs no escape in a pattern, and tools that write patterns back into
 * regular expression literals escape it again: openapi-zod-client turns `^\/`
 * into `/^\\//`, which does not compile. Escaped backslashes (`\\/`) are kept.
 *
 * @example
 * plainPattern(/^\/api\//.source) // '^/api/'
 */
export function plainPattern(source: string): string {
  // Escapes are read in pairs from the left, so `\\` (a backslash) is never taken for the start of `\/`.
  return source.replace(/\\([\s\S])/g, (escape, char: string) => (char === '/' ? '/' : escape))
}
