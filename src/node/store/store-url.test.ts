import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { describeStoreUrl, parseStoreUrl } from './store-url.js'

describe('parseStoreUrl', () => {
  it('reads host, port and database, with 6379 and 0 when left out', () => {
    expect(parseStoreUrl('redis://127.0.0.1:6390/2')).toEqual({ scheme: 'redis', host: '127.0.0.1', port: 6390, database: 2, username: undefined, password: undefined })
    expect(parseStoreUrl('redis://redis.internal')).toMatchObject({ host: 'redis.internal', port: 6379, database: 0 })
    expect(parseStoreUrl('redis://redis.internal/')).toMatchObject({ database: 0 })
    expect(parseStoreUrl('  redis://[::1]:7000  ')).toMatchObject({ host: '::1', port: 7000 })
  })

  it('decodes the user and password', () => {
    expect(parseStoreUrl('redis://app:p%40ss%3Aw%2Ford@h')).toMatchObject({ username: 'app', password: 'p@ss:w/ord' })
    expect(parseStoreUrl('redis://:only-password@h')).toMatchObject({ username: undefined, password: 'only-password' })
    expect(parseStoreUrl('redis://app@h')).toMatchObject({ username: 'app', password: undefined })
  })

  it.each([
    ['http://127.0.0.1:6379', /must start with redis:\/\/ \(got http:\/\/\)/],
    ['rediss://h:6380', /rediss:\/\/ \(TLS\), which is not supported yet/],
    ['127.0.0.1:6379', /must start with redis:\/\//],
    ['localhost:6379', /must start with redis:\/\/, as in redis:\/\/127.0.0.1:6379/],
    ['redis:h', /must start with redis:\/\//],
    ['redis:///0', /names no host/],
    ['redis://h/worlds', /path \/worlds; a path can only be a database number/],
    ['redis://h/1/2', /a path can only be a database number/],
    ['redis://h/-1', /a path can only be a database number/],
    ['redis://h?db=1', /has a query or fragment/],
    ['redis://h?', /has a query or fragment/],
    ['redis://h#x', /has a query or fragment/],
    ['redis://h:0', /port must be between 1 and 65535/],
    ['redis://h:70000', /not a valid URL/],
    ['redis://exa mple', /not a valid URL/],
    ['redis://u:%E0%A4%A@h', /not valid percent-encoding/],
  ])('refuses %s with a one-line ConfigError', (text, message) => {
    const error = (() => {
      try {
        parseStoreUrl(text)
      } catch (error) {
        return error
      }
    })()
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toMatch(message)
    expect((error as Error).message).not.toContain('\n')
  })

  it('never repeats the password in a refusal, however the URL is broken', () => {
    const broken = [
      'redis://app:hunter2@h/worlds',
      'redis://app:hunter2@h?x',
      'redis://app:hunter2@h:0',
      'redis://app:hunter2@h:99999',
      'redis://app:hun/ter2@h',
      'redis://app:hunter2@',
      'rediss://app:hunter2@h',
      'http://app:hunter2@h',
    ]
    for (const text of broken) {
      expect(() => parseStoreUrl(text), text).toThrow(ConfigError)
      try {
        parseStoreUrl(text)
      } catch (error) {
        expect((error as Error).message, text).not.toMatch(/hunter|ter2/)
      }
    }
  })
})

describe('describeStoreUrl', () => {
  it('shows where the store is and masks the password', () => {
    expect(describeStoreUrl(parseStoreUrl('redis://app:s3cret@redis.internal/1'))).toBe('redis://app:***@redis.internal:6379/1')
    expect(describeStoreUrl(parseStoreUrl('redis://:s3cret@h:7000'))).toBe('redis://:***@h:7000')
    expect(describeStoreUrl(parseStoreUrl('redis://app@h'))).toBe('redis://app@h:6379')
    expect(describeStoreUrl(parseStoreUrl('redis://[::1]'))).toBe('redis://[::1]:6379')
    expect(describeStoreUrl(parseStoreUrl('redis://127.0.0.1:6390'))).toBe('redis://127.0.0.1:6390')
  })
})
