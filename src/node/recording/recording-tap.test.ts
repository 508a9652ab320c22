import { brotliCompressSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { RECORDED_BODY_LIMIT, RecordingTap } from './recording-tap.js'

const URL_ = 'http://127.0.0.1:4000/core/products/prod-1001'
const body = JSON.stringify({ id: 'prod-1001', name: 'Keyboard' })

describe('RecordingTap', () => {
  it.each([
    ['identity', Buffer.from(body)],
    ['gzip', gzipSync(body)],
    ['br', brotliCompressSync(body)],
  ])('reads an answer sent with content-encoding %s as its JSON text', (encoding, bytes) => {
    const tap = new RecordingTap()
    tap.request.add(Buffer.from('{"a":1}'))
    tap.response.add(bytes.subarray(0, 5))
    tap.response.add(bytes.subarray(5))
    expect(tap.answer({ method: 'PUT', url: URL_, status: 200, encoding })).toEqual({ method: 'PUT', url: URL_, status: 200, requestText: '{"a":1}', responseText: body })
  })

  it('leaves out a body over the limit, and one whose encoding it cannot read, saying why', () => {
    const large = new RecordingTap()
    large.response.add(Buffer.alloc(RECORDED_BODY_LIMIT + 1))
    expect(large.answer({ method: 'GET', url: URL_, status: 200, encoding: undefined })).toEqual({ method: 'GET', url: URL_, status: 200, unreadable: 'a body was over 8 MiB' })
    const odd = new RecordingTap()
    odd.response.add(Buffer.from('zzz'))
    expect(odd.answer({ method: 'GET', url: URL_, status: 200, encoding: 'zstd' }).unreadable).toBe('the answer\'s content-encoding "zstd" could not be read')
    const broken = new RecordingTap()
    broken.response.add(Buffer.from('not gzip'))
    expect(broken.answer({ method: 'GET', url: URL_, status: 200, encoding: 'gzip' }).unreadable).toMatch(/could not be read/)
  })

  it('stops a gzip bomb at the limit instead of inflating it whole', () => {
    const tap = new RecordingTap()
    tap.response.add(gzipSync(Buffer.alloc(RECORDED_BODY_LIMIT * 4)))
    expect(tap.answer({ method: 'GET', url: URL_, status: 200, encoding: 'gzip' }).unreadable).toMatch(/could not be read/)
  })
})
