import { describe, expect, it } from 'vitest'
import { isSecretKey, redactHeaders, redactJson, redactJsonText, redactUrl } from './redact.js'

describe('redaction', () => {
  it('knows secret names by their ending, in any case or separator style', () => {
    for (const key of [
      'password',
      'newPassword',
      'password_hash',
      'token',
      'access_token',
      'refreshToken',
      'signature',
      'client_secret',
      'API-Key',
      'privateKey',
      'Authorization',
      'cookie',
    ]) {
      expect(isSecretKey(key), key).toBe(true)
    }
    for (const key of ['token_id', 'token_type', 'tokens', 'signature_mode', 'username', 'transaction_hash', 'expires_in']) expect(isSecretKey(key), key).toBe(false)
  })

  it('redacts parsed JSON at any depth, whole values included, without touching the input', () => {
    const parsed = JSON.parse('{"a":[{"b":{"password":"x","keep":1}}],"secret":{"nested":true}}')
    expect(redactJson(parsed)).toEqual({ a: [{ b: { password: '[redacted]', keep: 1 } }], secret: '[redacted]' })
    // A "__proto__" key stays a plain key; it never becomes the copy's prototype.
    const proto = redactJson(JSON.parse('{"__proto__":{"token":"t"}}')) as object
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value).toEqual({ token: '[redacted]' })
    expect(parsed.a[0].b.password).toBe('x')
  })

  it('redacts JSON text that does not parse, including a value cut off at the end', () => {
    expect(redactJsonText('{"user":{"password":"hun\\"ter2","n":1},"token":12345,"signature":"0xab')).toBe(
      '{"user":{"password":"[redacted]","n":1},"token":"[redacted]","signature":"[redacted]"',
    )
  })

  it('redacts form-encoded text sent as a body (regression: a login sent as a form kept its password in the journal)', () => {
    expect(redactJsonText('username=ada&password=hunter2&api%5Fkey=k1&next=/home')).toBe('username=ada&password=[redacted]&api%5Fkey=[redacted]&next=/home')
    expect(redactJsonText('token=abc')).toBe('token=[redacted]')
  })

  it('keeps the Authorization scheme and drops secret query values', () => {
    expect(redactHeaders(new Headers({ authorization: 'Bearer abc', cookie: 'a=1', accept: 'x' }))).toEqual({
      accept: 'x',
      authorization: 'Bearer [redacted]',
      cookie: '[redacted]',
    })
    expect(redactUrl('http://x/a?page=2&token=abc')).toBe('http://x/a?page=2&token=%5Bredacted%5D')
    expect(redactUrl('http://x/a?page=2')).toBe('http://x/a?page=2')
  })
})
