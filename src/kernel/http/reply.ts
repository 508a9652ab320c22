/**
 * What a route answers: a status, lowercase header names and the body text.
 * A plain value rather than a Fetch `Response`, so the CLI server's fast path
 * can write it straight to the socket; the msw path turns it into a `Response`
 * in one place (`toFetchResponse`).
 *
 * @example
 * const reply: Reply = { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"ok":true}' }
 */
export interface Reply {
  /** `0` means "drop the connection": a network error (a `drop` fault), as in HAR files. */
  status: number
  /** Lowercase names. */
  headers: Record<string, string>
  /** `null`: no body (204, a dropped connection). */
  body: string | null
  /**
   * The body is text a cache holds for longer than this request (Area A's list
   * pages), so the journal keeps a reference to it instead of a copy: the text
   * lives on anyway, and a reference costs neither a copy nor the GC anything.
   */
  bodyCached?: boolean
  /**
   * A body that keeps coming (Server-Sent Events, `GET /__mock/events`):
   * written chunk by chunk as it arrives, never whole; `body` is `null` then.
   */
  stream?: ReadableStream<Uint8Array>
}

/**
 * A network error: no answer at all, the connection is dropped (a `drop` fault).
 *
 * @example
 * if (fault.drop) return droppedReply()
 */
export function droppedReply(): Reply {
  return { status: 0, headers: {}, body: null }
}
