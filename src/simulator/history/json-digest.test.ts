import { describe, expect, it } from 'vitest'
import { digestOfJson } from './json-digest.js'
import { digestOf } from './world-bundle.js'

describe('digestOfJson', () => {
  it('gives the digest of the whole JSON text, multi-byte characters included', async () => {
    const value = { users: Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `Zoë ${i} 🚀`, tags: ['a', 'b'] })), note: 'ünïcode', nothing: undefined }
    expect(digestOfJson(value, 3)).toEqual(await digestOf(JSON.stringify(value)))
  })
})
