import { describe, expect, it } from 'vitest'
import { jsonPieces, jsonStream, streamedJson } from './json-stream.js'

async function read(stream: ReadableStream<Uint8Array>): Promise<{ text: string; chunks: number }> {
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let chunks = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return { text: text + decoder.decode(), chunks }
    chunks++
    text += decoder.decode(value, { stream: true })
  }
}

// Values JSON has rules for at every level the writer takes apart.
const awkward = {
  format: 1,
  gone: undefined,
  fn: () => 1,
  [Symbol('s')]: 1,
  'quote"key\n': 'é ✓ 𝄞 \u2028 \ud800 "quoted"',
  numbers: [0, -0, 1.5e300, Number.NaN, Number.POSITIVE_INFINITY, undefined, () => 1, null],
  nested: { list: [{ a: undefined, b: [undefined] }, new Date(0), new Map([[1, 2]]), Object.assign(Object.create(null), { c: 1 })], withToJson: { toJSON: () => 'replaced' } },
  boxed: [new String('s'), new Number(2), new Boolean(false)],
  empty: { object: {}, list: [] },
  dropped: { toJSON: () => undefined },
}

describe('jsonPieces', () => {
  it.each([0, 1, 2, 3, 4, 8])('joins to JSON.stringify at depth %i', (depth) => {
    expect([...jsonPieces(awkward, depth)].join('')).toBe(JSON.stringify(awkward))
  })

  it.each([null, 1, 'text', true, undefined, [], {}, [undefined], { toJSON: () => undefined }])('gives JSON.stringify of %j at the top', (value) => {
    expect([...jsonPieces(value, 3)].join('')).toBe(JSON.stringify(value) ?? '')
  })
})

describe('jsonStream', () => {
  it('streams the same bytes as JSON.stringify, in chunks, for a large document', async () => {
    const users = Array.from({ length: 20_000 }, (_, i) => ({ id: `u${i}`, name: `Zoë ${i} ✓`, last_login: i % 2 ? null : '2026-01-01T00:00:00.000Z' }))
    const state = { format: 1, accounts: { users }, core: { products: [{ id: 'p', price: 1.5 }] } }
    const { text, chunks } = await read(jsonStream(state, 3))
    expect(text).toBe(JSON.stringify(state))
    expect(chunks).toBeGreaterThan(10)
  })

  it.each([0, 1, 2, 3, 4])('streams the awkward values and a long list of them like JSON.stringify at depth %i', async (depth) => {
    const value = { ...awkward, many: Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 ? undefined : i % 5 === 0 ? [awkward.nested, i] : awkward.nested)) }
    expect((await read(jsonStream(value, depth))).text).toBe(JSON.stringify(value))
    expect((await read(jsonStream(undefined, depth))).text).toBe('')
  })

  it('shows the value as it was when the stream was made: small parts written then, long lists copied', async () => {
    const users = Array.from({ length: 5000 }, (_, i) => ({ id: `u${i}` }))
    const state = { accounts: { users }, core: { totals: { accepted: 1 }, products: [{ id: 'p', price: 1 }] } }
    const expected = JSON.stringify(state)
    const stream = jsonStream(state, 3)
    state.core.totals.accepted = 2
    state.core.products[0]!.price = 2
    users.push({ id: 'late' })
    state.accounts.users = []
    expect((await read(stream)).text).toBe(expected)
  })

  it('makes a chunk only when the reader asks for one, and stops when it cancels', async () => {
    let reads = 0
    const users = Array.from({ length: 50_000 }, (_, i) => ({
      get id() {
        reads++
        return `u${i}`
      },
    }))
    const stream = jsonStream({ users }, 2)
    const reader = stream.getReader()
    await reader.read()
    // One chunk taken, one queued ahead: a small part of the 50,000 records.
    expect(reads).toBeGreaterThan(0)
    expect(reads).toBeLessThan(20_000)
    await reader.cancel()
    const after = reads
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(reads).toBe(after)
  })

  it('answers as a JSON reply without Content-Length', async () => {
    const reply = streamedJson({ ok: true }, 3)
    expect(reply).toMatchObject({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: null })
    expect((await read(reply.stream!)).text).toBe('{"ok":true}')
  })
})
