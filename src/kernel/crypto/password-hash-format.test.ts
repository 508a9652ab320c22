import { describe, expect, it } from 'vitest'
import { MAX_PASSWORD_ITERATIONS, PASSWORD_HASH_PATTERN, passwordHashProblem } from './password-hash-format.js'
import { hashPassword, NO_PASSWORD_HASH, PASSWORD_ITERATIONS, PasswordHasher } from './password.js'

const WORLD = 'bXVsdGktYXJlYS1tb2NrLzE='
const SALT = 'BwcHBwcHBwcHBwcHBwcHBw=='
const HASH = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='
const hmacHash = (rounds: string) => `pbkdf2-hmac-sha256$${rounds}$${WORLD}$${SALT}$${HASH}`

describe('the stored password hash format', () => {
  it('takes what this simulator writes, in both formats, and none', async () => {
    const salt = new Uint8Array(16).fill(7)
    for (const stored of [await new PasswordHasher(() => 'multi-area-mock/1').hash('Passw0rd!', salt), await hashPassword('Passw0rd!', salt), NO_PASSWORD_HASH]) {
      expect(passwordHashProblem(stored)).toBeUndefined()
      expect(new RegExp(PASSWORD_HASH_PATTERN).test(stored)).toBe(true)
    }
  })

  it('takes 1 to 10,000 iterations: ten times the simulator’s own 1,000, and the 4,096 of its first version', () => {
    expect([PASSWORD_ITERATIONS, MAX_PASSWORD_ITERATIONS]).toEqual([1000, 10_000])
    for (const rounds of ['1', '9', '1000', '4096', '9999', '10000']) expect(passwordHashProblem(hmacHash(rounds))).toBeUndefined()
    for (const rounds of ['0', '10001', '20000000', '01000', '99999999999999999999']) {
      expect(passwordHashProblem(hmacHash(rounds))).toBe('must have an iteration count of 1 to 10000 (this simulator writes 1000)')
      expect(passwordHashProblem(`pbkdf2-sha256$${rounds}$${SALT}$${HASH}`)).toBe('must have an iteration count of 1 to 10000 (this simulator writes 1000)')
    }
  })

  it('explains any other text, and the pattern (what the JSON Schema says) agrees with it', () => {
    const shape =
      'must be a hash this simulator wrote: pbkdf2-hmac-sha256$<iterations>$<world salt>$<user salt>$<hash> or pbkdf2-sha256$<iterations>$<salt>$<hash> (salts and hash in base64), or "none"'
    for (const text of [
      '',
      'none ',
      'garbage',
      '$0$',
      hmacHash('1000').replace(SALT, 'a'),
      hmacHash('1000').replace(HASH, '!!!!'),
      `${hmacHash('1000')}$`,
      'pbkdf2-sha256$1000$$AA==',
    ]) {
      expect(passwordHashProblem(text)).toBe(shape)
    }
    const pattern = new RegExp(PASSWORD_HASH_PATTERN)
    for (const rounds of ['0', '1', '10000', '10001', '20000000']) expect(pattern.test(hmacHash(rounds))).toBe(passwordHashProblem(hmacHash(rounds)) === undefined)
  })

  it('verifies no hash outside the format, without PBKDF2 work or an exception: an iteration count of 0 or 20,000,000 is false at once', async () => {
    const hasher = new PasswordHasher(() => 'multi-area-mock/1')
    const started = performance.now()
    for (const stored of [hmacHash('0'), hmacHash('20000000'), `pbkdf2-sha256$0$${SALT}$${HASH}`, `pbkdf2-sha256$20000000$${SALT}$${HASH}`, hmacHash('1000').replace(SALT, 'a')]) {
      expect(await hasher.verify('Passw0rd!', stored)).toBe(false)
    }
    expect(performance.now() - started).toBeLessThan(500)
  })
})
