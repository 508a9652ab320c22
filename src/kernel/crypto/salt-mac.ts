import type { hmac } from '@noble/hashes/hmac.js'

/**
 * A keyed HMAC, typed as @noble/hashes' public `hmac.create(hash, key)` returns it.
 *
 * @example
 * const keyed: KeyedHmac = hmac.create(sha256, key)
 */
export type KeyedHmac = ReturnType<typeof hmac.create>

/**
 * `HMAC-SHA256(key, salt)` into `out` (32 bytes) for a key that `keyed` was
 * created with, through @noble/hashes' public API only: the key is padded and
 * its two blocks hashed once, in `hmac.create(sha256, key)`, and each MAC
 * starts from a `clone()` of that keyed state, so a user's hash costs two
 * SHA-256 compressions and never re-keys. No saved compression states or other
 * internals of the library are read, so any 2.x release computes it the same.
 * `salt-mac.test.ts` checks it against the one-shot `hmac(sha256, key, salt)`.
 *
 * @example
 * const mac = saltMac(hmac.create(sha256, key))
 * mac(salt, out) // out holds HMAC-SHA256(key, salt)
 */
export function saltMac(keyed: KeyedHmac): (salt: Uint8Array, out: Uint8Array) => void {
  return (salt, out) => keyed.clone().update(salt).digestInto(out)
}
