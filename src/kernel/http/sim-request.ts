/** The request headers a route may read; a Fetch `Headers` satisfies it. */
export interface RequestHeaders {
  /** The value of a header (name case-insensitive), `null` when absent. */
  get(name: string): string | null
  /** Every header as `[lowercase name, value]`, for the request journal. */
  entries(): Iterable<[string, string]>
}

/**
 * What a route sees of a request: the few things the simulator reads. Both a
 * Fetch `Request` (msw, in-process, browser: `fromFetchRequest`) and Node's
 * `IncomingMessage` (the CLI server's fast path) are adapted to it, so the
 * routes, validation and error bodies are shared by every way in.
 *
 * @example
 * const length = request.headers.get('content-length')
 * const text = await request.readText(1024 * 1024) // 413 past the limit
 */
export interface SimRequest {
  readonly method: string
  /** The absolute URL (`http://127.0.0.1:4000/core/users?limit=5`). */
  readonly url: string
  readonly headers: RequestHeaders
  /**
   * Reads the whole body as UTF-8 text, throwing a 413 `ApiError` as soon as
   * more than `limit` bytes arrived (a huge body is never buffered whole).
   * Read once; the text is then kept in `bodyText` for the journal.
   */
  readText(limit: number): Promise<string>
  /** The body text once `readText` has read it; `undefined` before. */
  readonly bodyText: string | undefined
}
