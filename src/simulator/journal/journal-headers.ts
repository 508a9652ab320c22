import type { RequestHeaders } from '../../kernel/http/sim-request.js'

/** Headers as one text, `name\nvalue\n…` (Fetch and Node both refuse line breaks in either). */
export function headerText(headers: RequestHeaders): string {
  let text = ''
  for (const [name, value] of headers.entries()) text += `${name}\n${value}\n`
  return text
}

/** The pairs of a `headerText`. */
export function headerPairs(text: string): Array<[string, string]> {
  const parts = text.split('\n')
  const pairs: Array<[string, string]> = []
  for (let i = 0; i + 1 < parts.length; i += 2) pairs.push([parts[i]!, parts[i + 1]!])
  return pairs
}
