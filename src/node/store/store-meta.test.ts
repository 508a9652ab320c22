import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { PACKAGE_VERSION } from '../../package-version.js'
import { claimStore, type MetaClaim, worldFingerprint } from './store-meta.js'

const SERVER_ONLY = new Set(['port'])
const OPTIONS = { seed: 7, scenario: 'default', auth: { secret: 'team-dev-secret' }, port: 4000 }
const SALT = 'ab'.repeat(16)

/** A store's `SET NX` in memory. */
function memoryStore(): MetaClaim & { value: string | undefined } {
  return {
    value: undefined,
    async claim(_key, value) {
      this.value ??= value
      return this.value
    },
  }
}

describe('worldFingerprint', () => {
  it('is the same for the same options, server-only ones aside, under one salt', () => {
    expect(worldFingerprint(OPTIONS, SERVER_ONLY, SALT)).toBe(worldFingerprint({ ...OPTIONS, port: 4001, log: () => undefined }, SERVER_ONLY, SALT))
    expect(worldFingerprint(OPTIONS, SERVER_ONLY, SALT)).not.toBe(worldFingerprint({ ...OPTIONS, seed: 8 }, SERVER_ONLY, SALT))
  })

  it('differs with the salt, the version and the JWT secret', () => {
    const fingerprint = worldFingerprint(OPTIONS, SERVER_ONLY, SALT)
    expect(worldFingerprint(OPTIONS, SERVER_ONLY, 'cd'.repeat(16))).not.toBe(fingerprint)
    expect(worldFingerprint(OPTIONS, SERVER_ONLY, SALT, '0.1.0')).not.toBe(fingerprint)
    expect(worldFingerprint({ ...OPTIONS, auth: { secret: 'other' } }, SERVER_ONLY, SALT)).not.toBe(fingerprint)
  })

  it('is no plain hash of the options or of the secret', () => {
    const fingerprint = worldFingerprint(OPTIONS, SERVER_ONLY, SALT)
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
    const { port: _, ...shaping } = OPTIONS
    expect(fingerprint).not.toBe(sha256(JSON.stringify(shaping)))
    expect(fingerprint).not.toBe(sha256('team-dev-secret'))
  })
})

describe('claimStore', () => {
  const fingerprint = (salt: string) => worldFingerprint(OPTIONS, SERVER_ONLY, salt)

  it('claims an empty store with a salt and the version, and a later replica with the same options joins at its instant', async () => {
    const store = memoryStore()
    expect(await claimStore(store, 'redis://x', fingerprint, 1_000)).toEqual({ startedAt: 1_000 })
    const meta = JSON.parse(store.value!)
    expect(meta).toEqual({ format: 2, version: PACKAGE_VERSION, salt: expect.stringMatching(/^[0-9a-f]{32}$/), fingerprint: fingerprint(meta.salt), startedAt: 1_000 })
    expect(await claimStore(store, 'redis://x', fingerprint, 2_000)).toEqual({ startedAt: 1_000 })
  })

  it.each([
    ['other options', (salt: string) => worldFingerprint({ ...OPTIONS, seed: 8 }, SERVER_ONLY, salt), /holds worlds started with other options \(seed, /],
    ['another version', (salt: string) => worldFingerprint(OPTIONS, SERVER_ONLY, salt, '0.1.0'), /holds worlds started with other options/],
  ])('refuses a replica with %s', async (_, theirs, message) => {
    const store = memoryStore()
    await claimStore(store, 'redis://x', theirs)
    await expect(claimStore(store, 'redis://x', fingerprint)).rejects.toThrow(message)
  })

  it.each([
    [{ format: 2, version: '9.9.9', salt: SALT, fingerprint: 'f'.repeat(64), startedAt: 1 }, `holds worlds of multi-area-mock 9.9.9, and this replica is ${PACKAGE_VERSION}`],
    [{ format: 3, version: '9.9.9', more: true }, 'holds worlds of multi-area-mock 9.9.9'],
    [{ format: 1, fingerprint: 'f'.repeat(64), startedAt: 1 }, 'holds worlds of an earlier version of multi-area-mock'],
    ['not json', 'is claimed by a key (meta) that is not one multi-area-mock wrote'],
    [{ format: 2, version: PACKAGE_VERSION, salt: 'short', fingerprint: 'f', startedAt: 1 }, 'not one multi-area-mock wrote'],
  ])('refuses a store claimed as %j, in one line', async (meta, message) => {
    const store = memoryStore()
    store.value = typeof meta === 'string' ? meta : JSON.stringify(meta)
    const refusal = await claimStore(store, 'redis://x', fingerprint).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(ConfigError)
    expect((refusal as Error).message).toContain(message)
    expect((refusal as Error).message).not.toContain('\n')
  })
})
