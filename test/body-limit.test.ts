/**
 * `serve --body-limit`: the largest request body an area route reads (D11),
 * over the real CLI in both dispatch modes. A body one byte over is a 413 and
 * writes nothing; one at the limit is answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, startCli } from './support/cli-server.js'
import { call } from './support/http.js'
import { warmDocument } from './support/warm-document.js'

const USERS = '/admin/api/v1.2/users'
const LIMIT = 1024

/** A user creation body of exactly `bytes` bytes (JSON padded with spaces inside the object). */
function bodyOf(bytes: number, username: string): string {
  const json = JSON.stringify({ username, email: `${username}@example.com`, password: 'Passw0rd!' })
  return `${json.slice(0, -1)}${' '.repeat(bytes - json.length)}}`
}

/** The same body sent as a stream, so no `Content-Length` announces it: the limit is met while reading. */
function streamed(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text)
  return new ReadableStream({
    start(controller) {
      for (let at = 0; at < bytes.length; at += 100) controller.enqueue(bytes.subarray(at, at + 100))
      controller.close()
    },
  })
}

describe.each(['fast', 'msw'])('serve --body-limit 1kb --dispatch %s', (dispatch) => {
  let server: CliServer
  beforeAll(async () => {
    server = await startCli(['--body-limit', '1kb', '--dispatch', dispatch, '--quiet'])
    await warmDocument(server.url)
  }, 60_000)
  afterAll(() => server.stop())

  const post = (body: BodyInit) => call(`${server.url}${USERS}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit)
  const exists = async (username: string) => (await call(`${server.url}/__mock/state`)).body.accounts.users.some((user: { username: string }) => user.username === username)

  it('answers a body of exactly the limit', async () => {
    const body = bodyOf(LIMIT, 'at.limit')
    expect(new TextEncoder().encode(body).length).toBe(LIMIT)
    const created = await post(body)
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ username: 'at.limit' })
  })

  it('refuses a body one byte over with 413 payload_too_large, and writes nothing', async () => {
    const refused = await post(bodyOf(LIMIT + 1, 'over.limit'))
    expect(refused.status).toBe(413)
    expect(refused.body).toEqual({ error: 'payload_too_large', message: `The request body is larger than the limit of ${LIMIT} bytes.`, limit: LIMIT })
    expect(await exists('over.limit')).toBe(false)
  })

  it('refuses a streamed body without Content-Length once it passes the limit', async () => {
    const refused = await post(streamed(bodyOf(LIMIT + 1, 'streamed.over')))
    expect(refused.status).toBe(413)
    expect(refused.body.error).toBe('payload_too_large')
    expect(await exists('streamed.over')).toBe(false)
    expect((await post(streamed(bodyOf(LIMIT, 'streamed.at')))).status).toBe(201)
  })

  it('leaves the control API its own limits: a fault list over 1 KiB is taken', async () => {
    const rules = Array.from({ length: 40 }, (_, index) => ({ route: `/core/products/prod-${index}`, latency: 1 }))
    expect(JSON.stringify({ rules }).length).toBeGreaterThan(LIMIT)
    const put = await call(`${server.url}/__mock/faults`, { method: 'PUT', json: { rules } })
    expect(put.status).toBe(200)
    expect((await call(`${server.url}/__mock/faults`, { method: 'DELETE' })).status).toBe(204)
  })
})

describe('serve without --body-limit', () => {
  let server: CliServer
  beforeAll(async () => {
    server = await startCli(['--quiet'])
    await warmDocument(server.url)
  }, 60_000)
  afterAll(() => server.stop())

  it('keeps the 1 MiB default: 1 MiB is answered, a byte more is 413', async () => {
    const post = (body: string) => call(`${server.url}${USERS}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect((await post(bodyOf(1024 * 1024, 'one.mebibyte'))).status).toBe(201)
    const refused = await post(bodyOf(1024 * 1024 + 1, 'one.byte.more'))
    expect(refused.status).toBe(413)
    expect(refused.body.limit).toBe(1024 * 1024)
  })
})
