/**
 * The start of a streamed body, for the request journal: up to `limit` bytes
 * are kept as they pass, the rest only counted, so a large body is never held
 * whole.
 *
 * @example
 * const capture = new BodyCapture(8192)
 * stream.on('data', (chunk) => capture.add(chunk))
 * capture.text() // the first 8 KiB as UTF-8, or undefined when there was no body
 */
export class BodyCapture {
  readonly #limit: number
  readonly #chunks: Buffer[] = []
  #kept = 0
  /** Bytes seen in all. */
  bytes = 0

  constructor(limit: number) {
    this.#limit = limit
  }

  add(chunk: Buffer): void {
    this.bytes += chunk.length
    if (this.#kept >= this.#limit) return
    const part = chunk.length <= this.#limit - this.#kept ? chunk : chunk.subarray(0, this.#limit - this.#kept)
    this.#chunks.push(part)
    this.#kept += part.length
  }

  /** `true` when every byte seen was kept (the body was not over the limit). */
  get whole(): boolean {
    return this.#kept === this.bytes
  }

  /** The bytes kept. */
  buffer(): Buffer {
    return Buffer.concat(this.#chunks)
  }

  /** What was kept, as text (a character cut at the limit is dropped); `undefined` for no body. */
  text(): string | undefined {
    if (this.bytes === 0) return undefined
    return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(this.#chunks)).replace(/\ufffd$/, '')
  }
}
