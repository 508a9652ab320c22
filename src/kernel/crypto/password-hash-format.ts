/**
 * What a stored password hash may look like when it comes from outside (a
 * state document's `password_hash`): the two formats this simulator writes
 * (see password.ts), or `none`, with an iteration count it could have
 * written. Checked when the hash is given, so a login never meets one that
 * costs seconds of PBKDF2 (20,000,000 iterations took 4.3 s) or that WebCrypto
 * refuses (0 iterations).
 */

/**
 * Most PBKDF2 iterations a stored hash may name: ten times the simulator's own
 * 1,000 (`PASSWORD_ITERATIONS`), above the 4,096 its first version wrote. A
 * login against such a hash derives its key in about 2.4 ms.
 */
export const MAX_PASSWORD_ITERATIONS = 10_000

/** 1 to 10,000 in decimal, no leading zero (kept in step with `MAX_PASSWORD_ITERATIONS` by the tests). */
const ITERATIONS = '(?:[1-9]\\d{0,3}|10000)'
/** Standard padded base64, not empty: what `atob` takes without an exception. */
const BASE64 = '(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)'
const formats = (iterations: string) =>
  new RegExp(`^(?:pbkdf2-hmac-sha256\\$${iterations}\\$${BASE64}\\$${BASE64}\\$${BASE64}|pbkdf2-sha256\\$${iterations}\\$${BASE64}\\$${BASE64}|none)$`)

/**
 * A stored password hash: `pbkdf2-hmac-sha256$<iterations>$<world salt>$<user salt>$<hash>`,
 * the older `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64 parts), or `none`;
 * 1 to `MAX_PASSWORD_ITERATIONS` iterations. What the state schema's pattern says.
 *
 * @example
 * PASSWORD_HASH_PATTERN.test('pbkdf2-hmac-sha256$0$AA==$AA==$AA==') // false
 */
export const PASSWORD_HASH_PATTERN = formats(ITERATIONS)
/** The same formats with any iteration count, to tell a bad count from a bad shape. */
const ANY_ITERATIONS = formats('\\d+')

/**
 * Why `text` is no stored password hash this simulator takes, in the words of
 * a 400's detail, or `undefined` when it is one.
 *
 * @example
 * passwordHashProblem('pbkdf2-hmac-sha256$20000000$AA==$AA==$AA==') // 'must have an iteration count of 1 to 10000 (this simulator writes 1000)'
 */
export function passwordHashProblem(text: string): string | undefined {
  if (PASSWORD_HASH_PATTERN.test(text)) return undefined
  if (ANY_ITERATIONS.test(text)) return `must have an iteration count of 1 to ${MAX_PASSWORD_ITERATIONS} (this simulator writes 1000)`
  return 'must be a hash this simulator wrote: pbkdf2-hmac-sha256$<iterations>$<world salt>$<user salt>$<hash> or pbkdf2-sha256$<iterations>$<salt>$<hash> (salts and hash in base64), or "none"'
}
