import { describe, expect, it } from 'vitest'
import { ApiError } from '../../errors/api-error.js'
import { fromFetchRequest } from '../fetch-adapter.js'
import { readJsonBody } from './json-body.js'

const post = (body: BodyInit | null, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fromFetchRequest(new Request('http://x/', { method: 'POST', body, headers }))

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(ApiError)
  return error as ApiError
}

describe('readJsonBody (D11)', () => {
  it('parses JSON, including +json media types', async () => {
    expect(await readJsonBody(post('{"a":1}'), { limit: 100 })).toEqual({ a: 1 })
    expect(await readJsonBody(post('[1]', { 'content-type': 'application/merge-patch+json; charset=utf-8' }), { limit: 100 })).toEqual([1])
  })

  it('invalid JSON is 400 invalid_json whose message never quotes the body (it may hold a secret)', async () => {
    for (const text of ['password=hunter2-secret', '{"password":"hunter2-secret" x}', 'hunter2-secret', '{"a":1,"password":"hunter2-secret",}']) {
      const error = await rejection(readJsonBody(post(text), { limit: 1000 }))
      expect(error).toMatchObject({ status: 400, code: 'invalid_json' })
      expect(error.message).toMatch(/^The request body is not valid JSON: \S/)
      expect(error.message).not.toContain('hunter2')
    }
  })

  it('a body the client aborts half-way is 400 bad_request, not an internal error', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":'))
        setTimeout(() => controller.error(new Error('aborted')), 1)
      },
    })
    const aborted = new Request('http://x/', { method: 'POST', body: stream, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit)
    expect(await rejection(readJsonBody(fromFetchRequest(aborted), { limit: 100 }))).toMatchObject({ status: 400, code: 'bad_request' })
  })

  it('refuses a declared or streamed body over the limit with 413', async () => {
    const declared = await rejection(readJsonBody(post('{"a":1}', { 'content-type': 'application/json', 'content-length': '101' }), { limit: 100 }))
    expect(declared).toMatchObject({ status: 413, code: 'payload_too_large' })
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new TextEncoder().encode(' '.repeat(30)))
        controller.close()
      },
    })
    const streaming = new Request('http://x/', { method: 'POST', body: stream, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit)
    // msw keeps a clone (a tee) of every request it handles; the read must not wait for it.
    const clone = streaming.clone()
    const streamed = await rejection(readJsonBody(fromFetchRequest(streaming), { limit: 100 }))
    expect(streamed.status).toBe(413)
    expect(clone.bodyUsed).toBe(false)
  })

  it('refuses a non-JSON content type with 415', async () => {
    expect(await rejection(readJsonBody(post('{}', { 'content-type': 'text/plain' }), { limit: 100 }))).toMatchObject({ status: 415, code: 'unsupported_media_type' })
    expect(await rejection(readJsonBody(post('a=1', { 'content-type': 'application/x-www-form-urlencoded' }), { limit: 100 }))).toMatchObject({ status: 415 })
  })

  it('refuses malformed and empty bodies with 400', async () => {
    expect(await rejection(readJsonBody(post('{"a":'), { limit: 100 }))).toMatchObject({ status: 400, code: 'invalid_json' })
    expect(await rejection(readJsonBody(post(''), { limit: 100 }))).toMatchObject({ status: 400, code: 'validation_failed' })
    expect(await rejection(readJsonBody(post(null), { limit: 100 }))).toMatchObject({ status: 400 })
  })
})

describe('readJsonBody with a parser of its own', () => {
  it("keeps the D11 checks and turns the parser's SyntaxError into 400 invalid_json", async () => {
    const parse = (text: string) => ({ raw: text })
    expect(await readJsonBody(post('{"a":1}'), { limit: 100, parse })).toEqual({ raw: '{"a":1}' })
    expect(await rejection(readJsonBody(post('{}', { 'content-type': 'text/plain' }), { limit: 100, parse }))).toMatchObject({ status: 415 })
    expect(await rejection(readJsonBody(post(''), { limit: 100, parse }))).toMatchObject({ status: 400, code: 'validation_failed' })
    const strict = () => {
      throw new SyntaxError('Duplicate key')
    }
    const error = await rejection(readJsonBody(post('{"a":1,"a":2}'), { limit: 100, parse: strict }))
    expect(error).toMatchObject({ status: 400, code: 'invalid_json' })
    expect(error.message).toContain('Duplicate key')
  })
})
