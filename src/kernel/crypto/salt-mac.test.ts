import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { expect, it } from 'vitest'
import { SeededRandom } from '../random/random.js'
import { saltMac } from './salt-mac.js'

it('gives HMAC-SHA256 exactly as @noble/hashes computes it, for 16-byte salts and any other length', () => {
  const random = new SeededRandom(11)
  for (const keyLength of [32, 1, 64, 100]) {
    const key = random.bytes(keyLength)
    const mac = saltMac(hmac.create(sha256, key))
    const out = new Uint8Array(32)
    for (let i = 0; i < 2000; i++) {
      const salt = random.bytes(i % 10 === 0 ? i % 70 : 16)
      mac(salt, out)
      expect(out, `key ${keyLength} bytes, salt ${salt.length} bytes`).toEqual(hmac(sha256, key, salt))
    }
  }
})

it('matches RFC 4231 test case 2, and leaves the keyed state as it was for the next salt', () => {
  const encode = (text: string) => new TextEncoder().encode(text)
  const keyed = hmac.create(sha256, encode('Jefe'))
  const mac = saltMac(keyed)
  const out = new Uint8Array(32)
  for (let round = 0; round < 2; round++) {
    mac(encode('what do ya want for nothing?'), out)
    expect(bytesToHex(out)).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843')
  }
  expect(keyed.clone().update(encode('what do ya want for nothing?')).digest()).toEqual(out)
})
