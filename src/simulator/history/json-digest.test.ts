import { describe, expect, it } from 'vitest'
import { digestOfJson } from './json-digest.js'

describe('digestOfJson', () => {
  it('gives the digest of the whole JSON text, multi-byte characters included', async () => {
    const value = { users: Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `Zoë ${i} 🚀`, tags: ['a', 'b'] })), note: 'ünïcode', nothing: undefined }
    const bytes = new TextEncoder().encode(JSON.stringify(value))
    const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
    expect(digestOfJson(value, 3)).toEqual({ sha256: Buffer.from(hash).toString('hex'), bytes: bytes.length })
  })
})
