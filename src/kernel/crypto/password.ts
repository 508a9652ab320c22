import { sha256 } from '@noble/hashes/sha2.js'
import type { SealedPassword } from './sealed-password.js'
import { ApiError } from '../errors/api-error.js'
import { fromBase64, toBase64 } from './base64.js'
import { PASSWORD_HASH_PATTERN } from './password-hash-format.js'
import { ALGORITHM, derive, type PasswordKey, passwordKey, sameBytes } from './password-key.js'

/**
 * Password hashing for a local simulator, with WebCrypto PBKDF2-SHA256 and a
 * synchronous HMAC, so it runs unchanged in Node, a browser service worker and
 * a test runner. Passwords are hashed so that none is ever kept, returned,
 * logged or exported; the cost is chosen so hashing does not dominate a user
 * creation (docs/behaviour.md, "Password hashing"):
 *
 * - the expensive part, `key = PBKDF2-SHA256(password, world salt, 1,000)`, is
 *   computed once per distinct password in a world and kept (bounded, in
 *   memory only, keyed by a SHA-256 of the password; only the last password
 *   looked up is kept as text, to skip that SHA-256 on a run of creations);
 * - each user's stored hash is `HMAC-SHA256(key, user salt)` with 16 random
 *   bytes of its own, so two users sharing a password still get different
 *   hashes, and a user creation with a known password costs one HMAC.
 *
 * Stored as `pbkdf2-hmac-sha256$<iterations>$<world salt>$<user salt>$<hash>`
 * (base64); the older `pbkdf2-sha256$<iterations>$<salt>$<hash>` still verifies.
 */
export const PASSWORD_ITERATIONS = 1000
const LEGACY = 'pbkdf2-sha256'
/**
 * The stored hash of an account without a password (a user recorded from real
 * traffic, a scenario's `password: null`): no password verifies it, and
 * checking one costs what a wrong password costs (`PasswordHasher.verify`).
 *
 * @example
 * await passwords.verify('Passw0rd!', NO_PASSWORD_HASH) // false, as for any password
 */
export const NO_PASSWORD_HASH = 'none'
/** Derived keys kept per hasher: far more than the distinct passwords a scenario uses. */
const DEFAULT_KEY_CACHE = 256
const encoder = new TextEncoder()

/**
 * Hashes and verifies the passwords of one world, deriving each distinct
 * password's key once. `worldSalt` is read at every hash (the world may be
 * reseeded), so hashes follow the world's seed and stay reproducible.
 *
 * @example
 * const passwords = new PasswordHasher(() => `multi-area-mock/${world.seed}`)
 * const stored = await passwords.hash('Passw0rd!', random.bytes(16))
 * await passwords.verify('Passw0rd!', stored) // true
 */
export class PasswordHasher {
  readonly #worldSalt: () => string
  readonly #sealed: ((text: string) => SealedPassword | undefined) | undefined
  readonly #iterations: number
  readonly #cacheSize: number
  /** `iterations$salt$sha256(password)` → the derived key, ready to sign; oldest dropped first. */
  readonly #keys: PasswordKeys
  /**
   * The last key looked up, by the password's text: a run of creations with one
   * password skips the SHA-256 that names it in `#keys` (~4% of a creation). The
   * text is what the request body held anyway; nothing else keeps it.
   */
  #last: { password: string; worldSalt: string; iterations: number; key: Promise<PasswordKey> } | undefined
  /** The last `seal` made, by the password's text and salts: a run of kept creations with one password skips its SHA-256 and encodings. */
  #lastSeal: { password: string; salts: string; iterations: number; text: Promise<string> } | undefined
  /** Keys ready to sign, by the sealed key they come from: a kept command's password is unsealed once per distinct key, not per write. */
  readonly #unsealed = new Map<string, PasswordKey>()

  /** `keys`: a cache shared with other hashers (a simulator's worlds): a key depends only on the password, salt and iterations. */
  /**
   * `sealed`: the sealed password a text stands for while a kept command is
   * applied (see `SealedPassword`), `undefined` for a clear one.
   */
  constructor(worldSalt: () => string, options: { iterations?: number; cacheSize?: number; keys?: PasswordKeys; sealed?: (text: string) => SealedPassword | undefined } = {}) {
    this.#worldSalt = worldSalt
    this.#sealed = options.sealed
    this.#keys = options.keys ?? newPasswordKeys()
    this.#iterations = options.iterations ?? PASSWORD_ITERATIONS
    this.#cacheSize = options.cacheSize ?? DEFAULT_KEY_CACHE
  }

  /** `pbkdf2-hmac-sha256$…` of `password` with this user's `salt`. */
  async hash(password: string, salt: Uint8Array): Promise<string> {
    return (await this.signer(password))(salt)
  }

  /**
   * A synchronous hasher for one password: its key is derived (or found) once,
   * then each salt costs one HMAC from a clone of the keyed state (`saltMac`).
   * Seeding 100,000 users that share a password hashes them this way
   * (bench/README.md, "Scale"); a user creation finds it in the cache.
   *
   * @example
   * const sign = await passwords.signer('Passw0rd!')
   * const stored = sign(random.bytes(16)) // same as await passwords.hash('Passw0rd!', salt)
   */
  async signer(password: string): Promise<(salt: Uint8Array) => string> {
    const sealed = this.#sealed?.(password)
    if (sealed !== undefined) return this.#unseal(sealed, this.#iterations, toBase64(encoder.encode(this.#worldSalt()))).sign
    const worldSalt = this.#worldSalt()
    const last = this.#last
    if (last !== undefined && last.password === password && last.worldSalt === worldSalt && last.iterations === this.#iterations) return (await last.key).sign
    const key = this.#key(password, encoder.encode(worldSalt), this.#iterations)
    const entry = { password, worldSalt, iterations: this.#iterations, key }
    this.#last = entry
    // A failed derivation is not kept here either.
    key.catch(() => {
      if (this.#last === entry) this.#last = undefined
    })
    return (await key).sign
  }

  /**
   * `true` when `password` matches `stored` (either format). Constant-time
   * compare. `NO_PASSWORD_HASH` matches nothing, after the work a wrong
   * password costs (this world's key for it), so the answer's timing does not
   * tell an account without a password from one with another.
   */
  async verify(password: string, stored: string): Promise<boolean> {
    const sealed = this.#sealed?.(password)
    if (stored === NO_PASSWORD_HASH) {
      if (sealed === undefined) await this.#key(password, encoder.encode(this.#worldSalt()), this.#iterations)
      return false
    }
    // State documents are checked when given (passwordHashProblem); this keeps any other way in from costing seconds or throwing.
    if (!PASSWORD_HASH_PATTERN.test(stored)) return false
    const parts = stored.split('$')
    if (parts[0] === LEGACY) return sealed === undefined && verifyPassword(password, stored)
    const [algorithm, rounds, worldSalt, salt, hash] = parts
    if (algorithm !== ALGORITHM || !rounds || !worldSalt || !salt || !hash) return false
    // A sealed password checks only hashes made under a world salt and cost it was sealed for (see `seal`).
    if (sealed !== undefined && sealed.keyFor(rounds, worldSalt) === undefined) return false
    const { keyed } = sealed !== undefined ? this.#unseal(sealed, Number(rounds), worldSalt) : await this.#key(password, fromBase64(worldSalt), Number(rounds))
    return sameBytes(keyed.clone().update(fromBase64(salt)).digest(), fromBase64(hash))
  }

  /**
   * `password` as a kept command carries it (`SealedPassword`): its key under
   * each of `worldSalts` (default: this world's), derived once. Hashing or
   * checking the sealed form gives what the clear one gives, for hashes made
   * under those salts; a hash in the older format, or under another salt,
   * checks only the clear password.
   *
   * @example
   * const text = await passwords.seal('Passw0rd!') // no clear text inside
   */
  seal(password: string, worldSalts: readonly string[] = [this.#worldSalt()]): Promise<string> {
    const salts = worldSalts.join('\n')
    const last = this.#lastSeal
    if (last !== undefined && last.password === password && last.salts === salts && last.iterations === this.#iterations) return last.text
    const text = this.#sealNew(password, worldSalts)
    const entry = { password, salts, iterations: this.#iterations, text }
    this.#lastSeal = entry
    text.catch(() => {
      if (this.#lastSeal === entry) this.#lastSeal = undefined
    })
    return text
  }

  async #sealNew(password: string, worldSalts: readonly string[]): Promise<string> {
    const keys: string[] = []
    for (const text of new Set(worldSalts)) {
      const worldSalt = encoder.encode(text)
      const { derived } = await this.#key(password, worldSalt, this.#iterations)
      keys.push(`${this.#iterations}$${toBase64(worldSalt)}$${toBase64(derived)}`)
    }
    return keys.join(';')
  }

  /** The key a sealed password carries for `iterations` and a world salt (base64); one it was not sealed for is a 409. */
  #unseal(sealed: SealedPassword, iterations: number, worldSalt: string): PasswordKey {
    const key = sealed.keyFor(iterations, worldSalt)
    if (key === undefined) throw new ApiError(409, 'conflict', 'A password sent before the world was seeded again can no longer be hashed for it; send the request again.')
    const id = `${iterations}$${worldSalt}$${key}`
    let ready = this.#unsealed.get(id)
    if (ready === undefined) {
      ready = passwordKey(fromBase64(key), fromBase64(worldSalt), iterations)
      if (this.#unsealed.size >= this.#cacheSize) this.#unsealed.delete(this.#unsealed.keys().next().value!)
      this.#unsealed.set(id, ready)
    }
    return ready
  }

  #key(password: string, worldSalt: Uint8Array, iterations: number): Promise<PasswordKey> {
    const id = `${iterations}$${toBase64(worldSalt)}$${toBase64(sha256(encoder.encode(password)))}`
    let key = this.#keys.get(id)
    if (key === undefined) {
      key = derive(password, worldSalt, iterations).then((derived) => passwordKey(derived, worldSalt, iterations))
      if (this.#keys.size >= this.#cacheSize) this.#keys.delete(this.#keys.keys().next().value!)
      this.#keys.set(id, key)
      // A failed derivation is not kept.
      key.catch(() => this.#keys.delete(id))
    }
    return key
  }
}

/** Derived keys by password, salt and iterations; shareable between hashers. */
export type PasswordKeys = Map<string, Promise<PasswordKey>>

/**
 * An empty key cache, to share between the hashers of one simulator's worlds.
 *
 * @example
 * const keys = newPasswordKeys()
 * const a = new PasswordHasher(() => 'salt', { keys }), b = new PasswordHasher(() => 'salt', { keys })
 */
export function newPasswordKeys(): PasswordKeys {
  return new Map()
}

/**
 * Hashes `password` with `salt` into the older `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`
 * (a full PBKDF2 per call); worlds hash with `PasswordHasher`.
 *
 * @example
 * const stored = await hashPassword('Passw0rd!', random.bytes(16))
 */
export async function hashPassword(password: string, salt: Uint8Array, iterations = PASSWORD_ITERATIONS): Promise<string> {
  const hash = await derive(password, salt, iterations)
  return `${LEGACY}$${iterations}$${toBase64(salt)}$${toBase64(hash)}`
}

/**
 * `true` when `password` matches a stored hash of either format, without any
 * cache (a full PBKDF2 per call). Constant-time compare.
 *
 * @example
 * await verifyPassword('Passw0rd!', account.password_hash)
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (!PASSWORD_HASH_PATTERN.test(stored)) return false
  const parts = stored.split('$')
  if (parts[0] === ALGORITHM) return new PasswordHasher(() => '', { cacheSize: 1 }).verify(password, stored)
  const [algorithm, rounds, saltText, hashText] = parts
  if (algorithm !== LEGACY || !rounds || !saltText || !hashText) return false
  return sameBytes(await derive(password, fromBase64(saltText), Number(rounds)), fromBase64(hashText))
}
