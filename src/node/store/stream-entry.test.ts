import { describe, expect, it } from 'vitest'
import { OVERSIZED } from './redis-scripts.js'
import { entryLimit, readStreamEntry } from './stream-entry.js'

const AT = Date.parse('2026-01-01T00:00:00Z')
const WRITE = { world: null, method: 'POST', url: 'http://127.0.0.1:4000/core/users', body: '{"username":"ada"}', at: AT, origin: 'abc:1' }
const options = { maxBytes: 10_000 }
const read = (value: unknown, more = {}) => readStreamEntry(typeof value === 'string' ? value : JSON.stringify(value), { ...options, ...more })

describe('readStreamEntry', () => {
  it('reads the commands replicas make: a write (sealed passwords too), an expiry, a fault decision', () => {
    const sealed = { ...WRITE, world: 'w-1', sealed: { 'sealed:1': '1000$c2FsdA==$a2V5' } }
    const touch = { world: 'w-1', method: '', url: '', at: AT, kind: 'touch' }
    const fault = { world: null, method: 'GET', url: 'http://127.0.0.1:4000/core/products', at: AT, kind: 'fault', origin: 'abc:2' }
    for (const command of [WRITE, sealed, touch, { ...touch, kind: 'expire' }, fault]) expect(read(command)).toEqual({ command })
  })

  it.each([
    ['{"at":1}', /^world is missing; method is missing; url is missing$/],
    [{ ...WRITE, method: 'GET' }, /^method is no write method \(POST, PUT, PATCH, DELETE\)$/],
    [{ ...WRITE, body: { username: 'ada' } }, /^body is an object, not a string$/],
    [{ ...WRITE, sealed: { 'sealed:1': 42 } }, /^sealed\.sealed:1 is a number, not a string$/],
    [{ ...WRITE, sealed: ['x'] }, /^sealed is an array, not an object$/],
    [{ ...WRITE, url: '/core/users' }, /^url is no absolute http URL$/],
    [{ ...WRITE, url: 'file:///etc/passwd' }, /^url is no absolute http URL$/],
    [{ ...WRITE, at: 1e300 }, /^at is no instant a date can hold$/],
    [{ ...WRITE, at: '2026-01-01' }, /^at is a string, not a number$/],
    [{ ...WRITE, world: 'a:b' }, /^world is no world id/],
    [{ ...WRITE, extra: 1 }, /^it has a key no command has: "extra"$/],
    [{ ...WRITE, kind: 'drop' }, /^its kind is none of touch, expire or fault$/],
    [{ ...WRITE, kind: '__proto__' }, /^its kind is none of touch, expire or fault$/],
    [{ world: null, method: '', url: '', at: AT, kind: 'touch' }, /^world is null, not a string$/],
    ['{"world":null,', /^it is not JSON$/],
    ['', /^it has no text in its field "e"$/],
    ['[1]', /^it is not a JSON object$/],
    ['null', /^it is not a JSON object$/],
  ])('refuses %j, saying why in one line', (value, why) => {
    const reading = read(value)
    expect(reading).toEqual({ reason: expect.stringMatching(why) })
    expect((reading as { reason: string }).reason).not.toContain('\n')
  })

  it('refuses an entry over the limit in bytes before reading it, and one Redis sent as oversized', () => {
    const text = JSON.stringify({ ...WRITE, body: 'x'.repeat(10_000) })
    expect(readStreamEntry(text, options)).toEqual({ reason: `it is ${text.length} bytes long, over the 10000 an entry may hold` })
    // 4,000 characters, 12,000 bytes.
    const wide = JSON.stringify({ ...WRITE, body: '€'.repeat(4_000) })
    expect(readStreamEntry(wide, options)).toEqual({ reason: `it is ${Buffer.byteLength(wide)} bytes long, over the 10000 an entry may hold` })
    expect(readStreamEntry(`${OVERSIZED}20000`, options)).toEqual({ reason: 'it is 20000 bytes long, over the 10000 an entry may hold' })
    expect(readStreamEntry(JSON.stringify({ ...WRITE, body: '€'.repeat(3_000) }), options)).toHaveProperty('command')
  })

  it('refuses a write whose route changes no world', () => {
    const changesWorld = (command: { url: string }) => !command.url.endsWith('/__mock/requests')
    expect(read({ ...WRITE, method: 'DELETE', url: 'http://127.0.0.1:4000/__mock/requests' }, { changesWorld })).toEqual({
      reason: 'DELETE /__mock/requests changes no world',
    })
    expect(read(WRITE, { changesWorld })).toEqual({ command: WRITE })
  })

  it('never names a value of the entry: only where it is wrong', () => {
    const reading = read({ ...WRITE, sealed: { 'sealed:1': { key: 'secret-key-material' } } }) as { reason: string }
    expect(reading.reason).not.toContain('secret-key-material')
  })
})

describe('entryLimit', () => {
  it('is twice the largest body a route takes, and 1 MiB', () => {
    expect(entryLimit(1024 * 1024)).toBe(2 * 64 * 1024 * 1024 + 1024 * 1024)
    expect(entryLimit(256 * 1024 * 1024)).toBe(2 * 256 * 1024 * 1024 + 1024 * 1024)
  })
})
