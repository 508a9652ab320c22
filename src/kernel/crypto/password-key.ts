import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { base64Into, base64Length, toBase64 } from './base64.js'
import { type KeyedHmac, saltMac } from './salt-mac.js'

/** The stored hash format of `PasswordHasher`: `pbkdf2-hmac-sha256$<iterations>$<world salt>$<user salt>$<hash>`. */
export const ALGORITHM = 'pbkdf2-hmac-sha256'
const encoder = new TextEncoder()
const latin1 = new TextDecoder('latin1')
const DOLLAR = 36

/** One password's derived key in a world: keyed HMAC state and a signer writing the stored form. */
export interface PasswordKey {
  /** The PBKDF2 output itself, for `seal`. */
  derived: Uint8Array
  keyed: KeyedHmac
  sign(salt: Uint8Array): string
}

/**
 * The key of a password derived under `worldSalt` and `iterations`: its keyed
 * HMAC state, and a signer that writes a user's stored hash for a salt.
 *
 * @example
 * const { sign } = passwordKey(await derive('Passw0rd!', worldSalt, 1000), worldSalt, 1000)
 * sign(random.bytes(16)) // 'pbkdf2-hmac-sha256$1000$…'
 */
export function passwordKey(key: Uint8Array, worldSalt: Uint8Array, iterations: number): PasswordKey {
  const keyed = hmac.create(sha256, key)
  const prefix = encoder.encode(`${ALGORITHM}$${iterations}$${toBase64(worldSalt)}$`)
  const mac = new Uint8Array(32)
  const macInto = saltMac(keyed)
  let text = new Uint8Array(0)
  const sign = (salt: Uint8Array): string => {
    macInto(salt, mac)
    // Written as bytes, decoded once: one flat string per user (a `${…}` chain
    // would keep a tree of string pieces alive for every stored hash).
    const length = prefix.length + base64Length(salt.length) + 1 + base64Length(mac.length)
    if (text.length !== length) text = new Uint8Array(length)
    text.set(prefix)
    let at = base64Into(salt, text, prefix.length)
    text[at++] = DOLLAR
    base64Into(mac, text, at)
    return latin1.decode(text)
  }
  return { derived: key, keyed, sign }
}

/**
 * PBKDF2-SHA256 of `password` (WebCrypto: Node, browsers and workers alike), 32 bytes.
 *
 * @example
 * const derived = await derive('Passw0rd!', salt, 1000)
 */
export async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: salt as Uint8Array<ArrayBuffer>, iterations }, key, 256)
  return new Uint8Array(bits)
}

/**
 * Constant-time comparison of two hashes.
 *
 * @example
 * sameBytes(computed, fromBase64(hash))
 */
export function sameBytes(actual: Uint8Array, expected: Uint8Array): boolean {
  if (actual.length !== expected.length) return false
  let diff = 0
  for (let i = 0; i < actual.length; i++) diff |= actual[i]! ^ expected[i]!
  return diff === 0
}
