import { redactJson, redactJsonText } from './redact.js'

/**
 * A journaled body as `GET /__mock/requests` shows it: the parsed JSON,
 * redacted, when `kept` is all of it (`length` characters) and JSON; otherwise
 * its redacted text, marked when cut.
 *
 * @example
 * bodyView('{"password":"x"}', 16) // { password: '[redacted]' }
 */
export function bodyView(kept: string, length: number): unknown {
  const cut = length > kept.length
  if (!cut) {
    try {
      return redactJson(JSON.parse(kept))
    } catch {
      // Not JSON: shown as text below.
    }
  }
  return cut ? `${redactJsonText(kept)}… [truncated: ${length} characters in all]` : redactJsonText(kept)
}
