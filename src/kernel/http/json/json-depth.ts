/** Deepest nesting of arrays and objects a request body may have: far beyond any document the simulator reads (resource data stops at 32). */
export const MAX_JSON_DEPTH = 64

/**
 * `true` when JSON text nests arrays and objects deeper than `max`: one pass
 * over the characters, no recursion, so a body 100,000 levels deep is refused
 * before anything walks it (a recursive reader, `JSON.stringify` included,
 * would run out of stack). Text too short to nest that deep is not scanned.
 *
 * @example
 * nestsDeeperThan('[[[1]]]', 2) // true
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  if (text.length <= max * 2) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === 0x5c)
        i++ // a backslash escapes the next character
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > max) return true
    } else if (code === 0x5d || code === 0x7d) depth--
  }
  return false
}
