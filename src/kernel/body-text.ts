/** Where a message's body text is kept once read or built (a symbol: invisible to JSON and to other code). */
const BODY_TEXT = Symbol.for('multi-area-mock.bodyText')

type Carrier = (Request | Response) & { [BODY_TEXT]?: string }

/**
 * Remembers the text of a body the simulator has already read (a request) or
 * built (a JSON response), so the request journal can show it without cloning
 * or re-reading any stream. Returns `message` for chaining.
 *
 * @example
 * return keepBodyText(new Response(text, init), text)
 */
export function keepBodyText<T extends Request | Response>(message: T, text: string): T {
  ;(message as Carrier)[BODY_TEXT] = text
  return message
}

/**
 * The body text remembered by `keepBodyText`, or `undefined` when the body was
 * never read (a request) or not built as text (a response).
 *
 * @example
 * bodyTextOf(response) // '{"id":"…"}'
 */
export function bodyTextOf(message: Request | Response): string | undefined {
  return (message as Carrier)[BODY_TEXT]
}
