import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { isCompactJwt } from './compact-jwt.js'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
const header = b64({ alg: 'HS256', typ: 'JWT' })
const payload = b64({ sub: 'u-1', iat: 1_767_225_600 })
const signature = createHmac('sha256', 'secret').update(`${header}.${payload}`).digest('base64url')
const token = `${header}.${payload}.${signature}`

describe('isCompactJwt', () => {
  it('takes three canonical unpadded base64url segments, an empty one included', () => {
    expect(isCompactJwt(token)).toBe(true)
    expect(isCompactJwt(`${header}.${payload}.`)).toBe(true)
  })

  it.each([
    ['padding after the signature', `${token}=`],
    ['two padding characters', `${token}==`],
    ['padding inside a segment', `${header}=.${payload}.${signature}`],
    ['a fourth segment', `${token}.x`],
    ['a trailing dot', `${token}.`],
    ['two segments', `${header}.${payload}`],
    ['standard base64 characters', `${header}.${payload}.${signature.replace(/[-_]/g, '+')}+`],
    ['a space', `${token} `],
    ['a line feed', `${token}\n`],
    ['a segment of 4n+1 characters (no whole number of bytes)', `${header}.${payload}.${signature}AA`],
  ])('refuses %s', (_what, text) => {
    expect(isCompactJwt(text)).toBe(false)
  })

  it('refuses a last character whose unused bits are set: decoders ignore them, so it would be the same token spelt otherwise', () => {
    // 43 characters carry 32 bytes and 2 spare bits, all zero in the encoder's spelling.
    expect(signature).toHaveLength(43)
    const last = ALPHABET.indexOf(signature.at(-1)!)
    for (const spare of [1, 2, 3]) {
      const respelt = `${signature.slice(0, -1)}${ALPHABET[last | spare]}`
      expect(Buffer.from(respelt, 'base64url')).toEqual(Buffer.from(signature, 'base64url'))
      expect(isCompactJwt(`${header}.${payload}.${respelt}`), respelt).toBe(false)
    }
  })
})
