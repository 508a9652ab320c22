import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import type { TrafficAnswer } from '../../simulator/recording/recorder.js'
import { BodyCapture } from '../server/body-capture.js'

/** Largest body the recorder reads whole (request or answer, before and after decompression); a larger one is left out. */
export const RECORDED_BODY_LIMIT = 8 * 1024 * 1024

/**
 * Both bodies of one proxied exchange, kept whole for `serve --record` while
 * they stream past (up to `RECORDED_BODY_LIMIT`), and the answer as the
 * recorder reads it once the upstream's answer has been written.
 *
 * @example
 * const tap = new RecordingTap()
 * req.on('data', (chunk) => tap.request.add(chunk)); answer.on('data', (chunk) => tap.response.add(chunk))
 * recorder.record(tap.answer({ method: 'GET', url, status: 200, encoding: answer.headers['content-encoding'] }))
 */
export class RecordingTap {
  readonly request = new BodyCapture(RECORDED_BODY_LIMIT)
  readonly response = new BodyCapture(RECORDED_BODY_LIMIT)

  /** The exchange for the recorder: bodies as text, the answer's decompressed; a body over the limit is `tooLarge`. */
  answer({ method, url, status, encoding }: { method: string; url: string; status: number; encoding: string | undefined }): TrafficAnswer {
    const base = { method, url, status }
    if (!this.request.whole || !this.response.whole) return { ...base, unreadable: `a body was over ${RECORDED_BODY_LIMIT / 1024 / 1024} MiB` }
    const body = decoded(this.response.buffer(), (encoding ?? 'identity').trim().toLowerCase())
    if (body === undefined) return { ...base, unreadable: `the answer's content-encoding "${encoding}" could not be read` }
    return {
      ...base,
      requestText: this.request.bytes === 0 ? undefined : this.request.buffer().toString('utf8'),
      responseText: body.length === 0 ? undefined : body.toString('utf8'),
    }
  }
}

/** A body without its content-encoding; `undefined` for one unknown or broken (or over the limit once decompressed). */
function decoded(body: Buffer, encoding: string): Buffer | undefined {
  const options = { maxOutputLength: RECORDED_BODY_LIMIT }
  try {
    if (encoding === 'identity' || body.length === 0) return body
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body, options)
    if (encoding === 'deflate') return inflateSync(body, options)
    if (encoding === 'br') return brotliDecompressSync(body, options)
    return undefined
  } catch {
    return undefined
  }
}
