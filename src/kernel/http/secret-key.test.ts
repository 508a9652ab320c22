import { describe, expect, it } from 'vitest'
import { isPasswordKey, isSecretEntry, isSecretHeader, isSecretKey, isSecretQueryParam, isSecretScopeKey, looksLikeSecretValue, redactSecretValues } from './secret-key.js'

const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTEiLCJleHAiOjE3Njc0MDAwMDB9.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU'
const BASIC = `Basic ${btoa('ada:hunter2')}`

/** Each row: names, and what the predicate must say of every one of them. */
function table(predicate: (name: string) => boolean, rows: Array<[boolean, string[]]>): void {
  for (const [expected, names] of rows) for (const name of names) expect(predicate(name), name).toBe(expected)
}

describe('isSecretKey', () => {
  it('names a password anywhere in the key, in any case or separator style (issue 43: these leaked into the journal)', () => {
    table(isSecretKey, [
      [
        true,
        [
          'password',
          'password_confirmation',
          'passwordConfirm',
          'password2',
          'password_repeat',
          'newPassword',
          'current-password',
          'PASSWORD',
          'passwordhash',
          'password_hash',
          'passwd',
          'old_passwd',
          'pwd',
          'oldpwd',
          'pass',
          'user_pass',
          'pass2',
          'passConfirm',
          'passphrase',
          'passcode',
          'pin',
          'pin_code',
          'pinCode',
          'new_pin',
          'otp',
        ],
      ],
    ])
  })

  it('knows the wider list of secret names', () => {
    table(isSecretKey, [
      [
        true,
        [
          'credential',
          'credentials',
          'aws_credentials',
          'auth',
          'basic_auth',
          'x-auth',
          'session',
          'user_session',
          'session_id',
          'sessionId',
          'JSESSIONID',
          'PHPSESSID',
          'sid',
          'secret',
          'client_secret',
          'clientSecret',
          'secretKey',
          'my_secret_value',
          'accessKey',
          'access_key_id',
          'awsAccessKeyId',
          'AWSAccessKeyId',
          'private_key',
          'api_key',
          'API-Key',
          'apiKey',
          'sig',
          'request_sig',
          'token',
          'access_token',
          'refreshToken',
          'id_token',
          'csrf_token',
          'token2',
          'signature',
          'authorization',
          'cookie',
          'set-cookie',
          'mnemonic',
          'auth_code',
          'session_key',
          'signing_key',
        ],
      ],
    ])
  })

  it('leaves names that only look alike visible', () => {
    table(isSecretKey, [
      [
        false,
        [
          'token_id',
          'token_type',
          'tokens',
          'signature_mode',
          'signatureMode',
          'username',
          'transaction_hash',
          'expires_in',
          'side',
          'sidebar',
          'consider',
          'inside',
          'passenger_count',
          'passengers',
          'passed',
          'compass',
          'bypass',
          'spin',
          'spin_up',
          'pinned',
          'shipping',
          'keyboard',
          'monkey',
          'key',
          'keys',
          'replay_key',
          'sort_key',
          'author',
          'authenticated',
          'authenticator',
          'auth_type',
          'auth_method',
          'sessions',
          'session_expires_at',
          'signal',
          'assign',
          'secretary',
          'description',
          'status',
        ],
      ],
    ])
  })
})

describe('isPasswordKey', () => {
  it('is a password or a repeat of one, never its hash', () => {
    table(isPasswordKey, [
      [true, ['password', 'password_confirmation', 'passwordConfirm', 'password2', 'password_repeat', 'new_password', 'passwd', 'pwd', 'pass', 'passphrase', 'pin', 'pinCode']],
      [false, ['password_hash', 'passwordHash', 'passwordhash', 'password_digest', 'password_salt', 'token', 'secret', 'username', 'passenger', 'spin']],
    ])
  })
})

describe('isSecretScopeKey', () => {
  it('is a secret name that also names where secrets live: an object under it is searched, not hidden whole', () => {
    table(isSecretScopeKey, [
      [true, ['auth', 'session', 'basic_auth', 'user_session']],
      [false, ['password', 'credentials', 'secret', 'token', 'sid', 'title']],
    ])
  })
})

describe('isSecretEntry', () => {
  it('hides a secret name whole, searches an object under a scope name, and hides a secret-looking value under any key', () => {
    expect(isSecretEntry('password', ['x'])).toBe(true)
    expect(isSecretEntry('private_key', { kty: 'RSA', d: 'x' })).toBe(true)
    expect(isSecretEntry('auth', 'dXNlcjpwYXNz')).toBe(true)
    expect(isSecretEntry('auth', { expires_in: 900 })).toBe(false)
    expect(isSecretEntry('session', { id: 's-1' })).toBe(false)
    expect(isSecretEntry('debug', `Bearer ${JWT}`)).toBe(true)
    expect(isSecretEntry('note', JWT)).toBe(true)
    expect(isSecretEntry('title', 'Q3 report')).toBe(false)
    expect(isSecretEntry('count', 3)).toBe(false)
  })
})

describe('isSecretQueryParam', () => {
  it('is a secret name, `key`, or any `X-Amz-*`', () => {
    table(isSecretQueryParam, [
      [
        true,
        ['key', 'KEY', 'api_key', 'access_token', 'password', 'pwd', 'sig', 'session', 'sid', 'X-Amz-Signature', 'X-Amz-Credential', 'x-amz-security-token', 'X-Amz-Date', 'auth'],
      ],
      [false, ['page', 'limit', 'fields', 'keyboard', 'monkey', 'sort', 'side', 'sidebar', 'token_type', 'world']],
    ])
  })
})

describe('isSecretHeader', () => {
  it('is a credential header, an `x-amz-*`, `x-auth*` or `x-session*` header, or a header with a secret name', () => {
    table(isSecretHeader, [
      [
        true,
        [
          'authorization',
          'Authorization',
          'proxy-authorization',
          'cookie',
          'set-cookie',
          'x-api-key',
          'api-key',
          'x-amz-security-token',
          'x-amz-date',
          'x-auth',
          'x-auth-token',
          'x-auth-user',
          'x-session',
          'x-session-id',
          'x-csrf-token',
          'x-access-token',
          'private-token',
          'x-client-secret',
          'ocp-apim-subscription-key',
        ],
      ],
      [false, ['accept', 'content-type', 'content-length', 'user-agent', 'x-request-id', 'x-mock-world', 'x-author', 'sec-fetch-mode', 'host', 'prefer']],
    ])
  })
})

describe('looksLikeSecretValue', () => {
  it('is a Bearer or Basic credential or a compact JWT, alone or inside a longer text', () => {
    table(looksLikeSecretValue, [
      [
        true,
        [
          'Bearer abc',
          'bearer bearer-token-3e7d',
          `Bearer ${JWT}`,
          BASIC,
          JWT,
          `${JWT.split('.').slice(0, 2).join('.')}.`,
          `  ${JWT}  `,
          `the caller sent Authorization: Bearer ${JWT}`,
          `Authorization: Bearer bearer-token-3e7d9`,
          `got ${BASIC} from the client`,
        ],
      ],
      [
        false,
        [
          '',
          'Bearer',
          'Basic plan',
          'Basic',
          'the bearer of this card',
          'Send Authorization: Bearer <token>.',
          'Bearer tokens are refused',
          'eyJ',
          'Q3 report',
          'ada@example.com',
          '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        ],
      ],
    ])
  })
})

describe('redactSecretValues', () => {
  it('replaces each credential inside a text, keeping the rest', () => {
    expect(redactSecretValues(`{"debug":"sent Bearer ${JWT} at 12:00","n":1}`, '[redacted]')).toBe('{"debug":"sent Bearer [redacted] at 12:00","n":1}')
    expect(redactSecretValues(`token ${JWT}; auth ${BASIC}`, '[redacted]')).toBe('token [redacted]; auth Basic [redacted]')
    expect(redactSecretValues('the bearer of this card', '[redacted]')).toBe('the bearer of this card')
  })
})
