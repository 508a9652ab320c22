import { ConfigError } from '../../kernel/errors/config-error.js'

/** Where replicas keep their shared worlds: a Redis server, as parsed from the URL the user gave. */
export interface StoreUrl {
  scheme: 'redis'
  /** A name or address; an IPv6 address without its brackets. */
  host: string
  port: number
  /** The Redis database number (`SELECT`), 0 unless the URL's path names one. */
  database: number
  /** The ACL user, decoded; `undefined` for the default user. */
  username: string | undefined
  /** Decoded. Never printed: see `describeStoreUrl`. */
  password: string | undefined
}

const DEFAULT_PORT = 6379
const SHAPE = 'redis://[user:password@]host[:port][/db]'

/**
 * Parses a store URL, `redis://[user:password@]host[:port][/db]` (port 6379 and database 0
 * unless given; user and password percent-encoded, as in any URL). Anything else is refused
 * with a one-line `ConfigError` that never repeats the password: another scheme, `rediss://`
 * (TLS is not supported yet), a path that is not a database number, a query or a fragment.
 *
 * Any host is accepted, not only loopback ones: the user named it on the command line, as
 * they would name their database. Over a network, plain `redis://` carries the password and
 * every command (salted password hashes included) in the clear: use a trusted network or a
 * TLS tunnel ending on 127.0.0.1.
 *
 * @example
 * parseStoreUrl('redis://127.0.0.1:6390/2')
 * // { scheme: 'redis', host: '127.0.0.1', port: 6390, database: 2, username: undefined, password: undefined }
 */
export function parseStoreUrl(text: string): StoreUrl {
  if (!/^[a-z][a-z\d+.-]*:\/\//i.test(text.trim())) {
    // A bare `host:port` would parse as a URL whose scheme is the host.
    throw new ConfigError(`The store URL must start with redis://, as in redis://127.0.0.1:6379: expected ${SHAPE}.`)
  }
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    // The text is not echoed: it may hold a password.
    throw new ConfigError(`The store URL is not a valid URL: expected ${SHAPE}, with special characters in the password percent-encoded.`)
  }
  if (url.protocol === 'rediss:') {
    throw new ConfigError('The store URL uses rediss:// (TLS), which is not supported yet: use redis:// on a trusted network, or a TLS tunnel ending on 127.0.0.1.')
  }
  if (url.protocol !== 'redis:') throw new ConfigError(`The store URL must start with redis:// (got ${url.protocol}//): expected ${SHAPE}.`)
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  if (host === '') throw new ConfigError(`The store URL names no host: expected ${SHAPE}.`)
  const port = url.port === '' ? DEFAULT_PORT : Number(url.port)
  if (port === 0) throw new ConfigError(`The store URL's port must be between 1 and 65535 (got 0).`)
  const parsed: StoreUrl = {
    scheme: 'redis',
    host,
    port,
    database: 0,
    username: url.username === '' ? undefined : decode(url.username),
    password: url.password === '' ? undefined : decode(url.password),
  }
  const shown = describeStoreUrl(parsed)
  if (url.search !== '' || url.hash !== '' || /[?#]$/.test(text.trim())) {
    throw new ConfigError(`The store URL ${shown} has a query or fragment; options go on the command line: expected ${SHAPE}.`)
  }
  const path = url.pathname.replace(/^\//, '')
  if (path !== '') {
    if (!/^\d{1,9}$/.test(path)) throw new ConfigError(`The store URL ${shown} has the path /${path}; a path can only be a database number: expected ${SHAPE}.`)
    parsed.database = Number(path)
  }
  return parsed
}

/**
 * The store URL for banners, logs and error messages: the password is always `***`.
 *
 * @example
 * describeStoreUrl(parseStoreUrl('redis://app:s3cret@redis.internal/1')) // 'redis://app:***@redis.internal:6379/1'
 */
export function describeStoreUrl(url: StoreUrl): string {
  const user = url.username === undefined ? '' : encodeURIComponent(url.username)
  const credentials = url.password === undefined ? (user === '' ? '' : `${user}@`) : `${user}:***@`
  const host = url.host.includes(':') ? `[${url.host}]` : url.host
  return `redis://${credentials}${host}:${url.port}${url.database === 0 ? '' : `/${url.database}`}`
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    throw new ConfigError('The store URL has a user or password that is not valid percent-encoding (write % as %25).')
  }
}
