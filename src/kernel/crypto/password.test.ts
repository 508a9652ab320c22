import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import { hashPassword, NO_PASSWORD_HASH, newPasswordKeys, PasswordHasher, verifyPassword } from './password.js'

describe('password hashing', () => {
  const salt = new Uint8Array(16).fill(7)

  it('stores a salted PBKDF2 hash that verifies only the right password', async () => {
    const stored = await hashPassword('Passw0rd!', salt)
    expect(stored).toMatch(/^pbkdf2-sha256\$1000\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/)
    expect(stored).not.toContain('Passw0rd!')
    expect(await verifyPassword('Passw0rd!', stored)).toBe(true)
    expect(await verifyPassword('passw0rd!', stored)).toBe(false)
    expect(await verifyPassword('Passw0rd!', 'garbage')).toBe(false)
  })

  it('gives different hashes for different salts', async () => {
    const other = await hashPassword('Passw0rd!', new Uint8Array(16).fill(8))
    expect(other).not.toBe(await hashPassword('Passw0rd!', salt))
  })
})

describe('PasswordHasher', () => {
  const salt = new Uint8Array(16).fill(7)

  it('stores a per-user HMAC over the world key that verifies only the right password, and never the text', async () => {
    const hasher = new PasswordHasher(() => 'multi-area-mock/1')
    const stored = await hasher.hash('Passw0rd!', salt)
    expect(stored).toMatch(/^pbkdf2-hmac-sha256\$1000\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/)
    expect(stored).not.toContain('Passw0rd!')
    expect(await hasher.verify('Passw0rd!', stored)).toBe(true)
    expect(await hasher.verify('passw0rd!', stored)).toBe(false)
    expect(await hasher.verify('Passw0rd!', 'garbage')).toBe(false)
    // Any other hasher (another world, no cache) verifies it too.
    expect(await new PasswordHasher(() => 'elsewhere').verify('Passw0rd!', stored)).toBe(true)
    expect(await verifyPassword('Passw0rd!', stored)).toBe(true)
  })

  it('gives users who share a password different hashes (their own salts)', async () => {
    const hasher = new PasswordHasher(() => 'multi-area-mock/1')
    const a = await hasher.hash('Passw0rd!', salt)
    const b = await hasher.hash('Passw0rd!', new Uint8Array(16).fill(8))
    expect(a).not.toBe(b)
    expect(await hasher.verify('Passw0rd!', b)).toBe(true)
  })

  it('still verifies hashes of the older pbkdf2-sha256 format', async () => {
    const legacy = await hashPassword('Passw0rd!', salt)
    const hasher = new PasswordHasher(() => 'multi-area-mock/1')
    expect(await hasher.verify('Passw0rd!', legacy)).toBe(true)
    expect(await hasher.verify('nope', legacy)).toBe(false)
  })

  it('is reproducible: the same world salt and user salt give the same hash', async () => {
    const one = await new PasswordHasher(() => 'multi-area-mock/1').hash('Passw0rd!', salt)
    expect(await new PasswordHasher(() => 'multi-area-mock/1').hash('Passw0rd!', salt)).toBe(one)
    expect(await new PasswordHasher(() => 'multi-area-mock/2').hash('Passw0rd!', salt)).not.toBe(one)
  })

  it('signs many salts synchronously, each exactly HMAC-SHA256(PBKDF2 key, salt) in base64', async () => {
    const hasher = new PasswordHasher(() => 'multi-area-mock/3')
    const sign = await hasher.signer('Passw0rd!')
    const worldSalt = new TextEncoder().encode('multi-area-mock/3')
    const material = await crypto.subtle.importKey('raw', new TextEncoder().encode('Passw0rd!'), 'PBKDF2', false, ['deriveBits'])
    const key = new Uint8Array(await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: worldSalt, iterations: 1000 }, material, 256))
    const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
    for (let i = 0; i < 40; i++) {
      const userSalt = Uint8Array.from({ length: 16 }, (_, j) => (i * 31 + j * 7) & 0xff)
      const expected = `pbkdf2-hmac-sha256$1000$${b64(worldSalt)}$${b64(userSalt)}$${b64(hmac(sha256, key, userSalt))}`
      expect(sign(userSalt)).toBe(expected)
      expect(await hasher.hash('Passw0rd!', userSalt)).toBe(expected)
    }
    expect(await hasher.verify('Passw0rd!', sign(salt))).toBe(true)
  })

  it('follows the world salt and the password between calls, even right after the same password', async () => {
    let world = 'multi-area-mock/1'
    const hasher = new PasswordHasher(() => world)
    const salt = new Uint8Array(16).fill(7)
    const first = await hasher.hash('Passw0rd!', salt)
    expect(await hasher.hash('Passw0rd!', salt)).toBe(first)
    const other = await hasher.hash('other-secret', salt)
    expect(other).not.toBe(first)
    expect(await hasher.verify('other-secret', other)).toBe(true)
    world = 'multi-area-mock/2'
    const reseeded = await hasher.hash('Passw0rd!', salt)
    expect(reseeded).not.toBe(first)
    expect(await hasher.verify('Passw0rd!', reseeded)).toBe(true)
    expect(await new PasswordHasher(() => 'multi-area-mock/2').hash('Passw0rd!', salt)).toBe(reseeded)
  })

  it('verifies no password at all against the hash of an account without one, after the work of a wrong password', async () => {
    const keys = newPasswordKeys()
    const hasher = new PasswordHasher(() => 'multi-area-mock/1', { keys })
    for (const guess of ['Passw0rd!', NO_PASSWORD_HASH, '', 'null']) {
      expect(await hasher.verify(guess, NO_PASSWORD_HASH)).toBe(false)
      expect(await verifyPassword(guess, NO_PASSWORD_HASH)).toBe(false)
    }
    // The guess's key was derived, as for a wrong password against a real hash.
    expect(keys.size).toBe(4)
  })
})
