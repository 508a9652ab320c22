/** One Server-Sent Event: its name (`message` when none) and its data lines joined. */
export interface FeedEvent {
  event: string
  data: string
}

/**
 * Splits Server-Sent Events text as it arrives: feed it chunks, get back the
 * events that are complete (a blank line ends one); comments (`: ping`) and
 * fields other than `event`, `data` and `retry` are skipped.
 *
 * @example
 * const parser = new EventParser()
 * parser.push('event: hello\ndata: {}\n\n') // [{ event: 'hello', data: '{}' }]
 */
export class EventParser {
  #buffer = ''
  /** Milliseconds the stream asked a client to wait before reconnecting (`retry:`). */
  retry: number | undefined

  push(chunk: string): FeedEvent[] {
    this.#buffer += chunk.replace(/\r\n?/g, '\n')
    const events: FeedEvent[] = []
    let end: number
    while ((end = this.#buffer.indexOf('\n\n')) !== -1) {
      const block = this.#buffer.slice(0, end)
      this.#buffer = this.#buffer.slice(end + 2)
      let event = 'message'
      const data: string[] = []
      for (const line of block.split('\n')) {
        if (line === '' || line.startsWith(':')) continue
        const colon = line.indexOf(':')
        const field = colon === -1 ? line : line.slice(0, colon)
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
        if (field === 'event') event = value
        else if (field === 'data') data.push(value)
        else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value)
      }
      if (data.length > 0) events.push({ event, data: data.join('\n') })
    }
    return events
  }
}

export interface FeedOptions {
  /** The events URL, without any secret in it. */
  url: string
  /** Sent on every (re)connection: the control token and the world. */
  headers: () => Record<string, string>
  onEvent(event: FeedEvent): void
  /** `live` once the stream is open, `retrying` while it reconnects, `refused` on a 401 (a new token is needed). */
  onStatus(status: 'live' | 'retrying' | 'refused', detail?: string): void
}

/**
 * Follows `GET /__mock/events` with `fetch()` and a stream reader instead of
 * `EventSource`, which can send neither the `Authorization` header nor
 * `x-mock-world`: the token travels in a header, never in the URL (which
 * servers, proxies and browser history keep). Reconnects after the stream's
 * `retry` when the connection ends; stops for good on 401 or `close()`.
 *
 * @example
 * const feed = openFeed({ url: '/__mock/events', headers: () => api.headers('/__mock/events'), onEvent, onStatus })
 * feed.close()
 */
export function openFeed(options: FeedOptions): { close(): void } {
  let closed = false
  let controller: AbortController | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  const connect = async () => {
    controller = new AbortController()
    const parser = new EventParser()
    try {
      const response = await fetch(options.url, { headers: { accept: 'text/event-stream', ...options.headers() }, cache: 'no-store', signal: controller.signal })
      if (response.status === 401) return options.onStatus('refused', 'The control token was refused.')
      if (!response.ok || response.body === null) throw new Error(`The events stream answered ${response.status}.`)
      options.onStatus('live')
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        for (const event of parser.push(value)) options.onEvent(event)
      }
    } catch (error) {
      if (closed) return
      options.onStatus('retrying', error instanceof Error ? error.message : String(error))
    }
    if (closed) return
    options.onStatus('retrying', 'The events stream ended; reconnecting.')
    timer = setTimeout(() => void connect(), parser.retry ?? 1000)
  }
  void connect()
  return {
    close() {
      closed = true
      clearTimeout(timer)
      controller?.abort()
    },
  }
}
