import { describe, expect, it } from 'vitest'
import { hashPassword, verifyPassword } from './password.js'

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
