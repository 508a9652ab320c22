/**
 * A string with at least one character that is not white space: the same
 * characters `String.prototype.trim` removes, so `text.trim() !== ''` and this
 * pattern agree. Unanchored, as JSON Schema's `pattern` reads it.
 *
 * @example
 * z.string().regex(NOT_BLANK, 'must be a non-empty string') // JSON Schema: { pattern: '\\S' }
 */
export const NOT_BLANK = /\S/
