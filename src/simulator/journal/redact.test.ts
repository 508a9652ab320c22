import { describe, expect, it } from 'vitest'
import { isSecretKey, redactHeaders, redactJson, redactJsonText, redactUrl } from './redact.js'

const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTEifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ'

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

  it('redacts password-like names anywhere in a key and the wider secret names (issue 43: they showed in the journal)', () => {
    const body = {
      username: 'ada',
      password_confirmation: 'p1',
      passwordConfirm: 'p2',
      password2: 'p3',
      password_repeat: 'p4',
      pin: 1234,
      pass: 'p5',
      pwd: 'p6',
      credential: 'c',
      session: 's',
      sid: 's2',
      mySecretValue: 'v',
      awsAccessKeyId: 'AKIA',
      sig: 'g',
      passenger_count: 2,
      keyboard: 'qwerty',
      key: 'k',
      token_id: 't-1',
      auth: { expires_in: 900, token: 't' },
    }
    expect(redactJson(body)).toEqual({
      username: 'ada',
      password_confirmation: '[redacted]',
      passwordConfirm: '[redacted]',
      password2: '[redacted]',
      password_repeat: '[redacted]',
      pin: '[redacted]',
      pass: '[redacted]',
      pwd: '[redacted]',
      credential: '[redacted]',
      session: '[redacted]',
      sid: '[redacted]',
      mySecretValue: '[redacted]',
      awsAccessKeyId: '[redacted]',
      sig: '[redacted]',
      passenger_count: 2,
      keyboard: 'qwerty',
      key: 'k',
      token_id: 't-1',
      // A scope name's object is searched, so a scenario's `auth` settings stay readable.
      auth: { expires_in: 900, token: '[redacted]' },
    })
  })

  it('redacts a Bearer credential or a JWT whatever its key, in JSON, JSON text, form text and plain text', () => {
    expect(redactJson({ debug: `Bearer ${JWT}`, list: [JWT, 'ok'], note: 'Q3' })).toEqual({ debug: '[redacted]', list: ['[redacted]', 'ok'], note: 'Q3' })
    expect(redactJsonText(`{"debug":"Bearer ${JWT}","list":["${JWT}"],"pin":1234,"password_repeat":"x","n":"ok`)).toBe(
      '{"debug":"[redacted]","list":["[redacted]"],"pin":"[redacted]","password_repeat":"[redacted]","n":"ok',
    )
    expect(redactJsonText(`note=${JWT}&key=k1&pwd=p&sid=s&page=2`)).toBe('note=[redacted]&key=[redacted]&pwd=[redacted]&sid=[redacted]&page=2')
    expect(redactJsonText(`the caller sent Authorization: Bearer ${JWT} today`)).toBe('the caller sent Authorization: Bearer [redacted] today')
  })

  it('redacts x-auth, x-session, x-amz-* headers and any header whose value is a credential', () => {
    expect(
      redactHeaders(
        new Headers({
          'x-auth': 'a',
          'x-auth-token': 'b',
          'x-session': 'c',
          'x-session-id': 'd',
          'x-amz-security-token': 'e',
          'x-debug': `Bearer ${JWT}`,
          'x-note': JWT,
          accept: 'x',
        }),
      ),
    ).toEqual({
      accept: 'x',
      'x-amz-security-token': '[redacted]',
      'x-auth': '[redacted]',
      'x-auth-token': '[redacted]',
      'x-debug': '[redacted]',
      'x-note': '[redacted]',
      'x-session': '[redacted]',
      'x-session-id': '[redacted]',
    })
  })

  it('redacts `key`, `sig`, `X-Amz-*`, password-like query parameters and credential-looking query values', () => {
    const url = new URL(redactUrl(`http://x/a?page=2&key=k1&sig=s1&X-Amz-Signature=a1&X-Amz-Credential=c1&pwd=p1&password2=p2&session=s2&debug=${JWT}&keyboard=q`))
    expect(Object.fromEntries(url.searchParams)).toEqual({
      page: '2',
      key: '[redacted]',
      sig: '[redacted]',
      'X-Amz-Signature': '[redacted]',
      'X-Amz-Credential': '[redacted]',
      pwd: '[redacted]',
      password2: '[redacted]',
      session: '[redacted]',
      debug: '[redacted]',
      keyboard: 'q',
    })
  })
})
