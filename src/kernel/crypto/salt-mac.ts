import type { _HMAC } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'

/** What a salt-MAC uses of @noble/hashes' SHA-256: its state and its one-block compression. */
interface Sha256Engine {
  get(): number[]
  set(...state: number[]): void
  process(view: DataView, offset: number): void
}

/** The salts users get (`random.bytes(16)`): one padded block each. */
const SALT_BYTES = 16
const BLOCK = 64
/** Message lengths in bits after the 64-byte key block: key block + salt, key block + inner digest. */
const INNER_BITS = (BLOCK + SALT_BYTES) * 8
const OUTER_BITS = (BLOCK + 32) * 8

/**
 * `HMAC-SHA256(key, salt)` into `out` (32 bytes) for a key whose inner and
 * outer states are `keyed`'s, as `keyed.clone().update(salt).digestInto(out)`
 * computes it. A 16-byte salt fits one padded block, so each MAC is exactly
 * two runs of @noble/hashes' own SHA-256 compression from the saved states,
 * without the copies, checks and buffer clearing of a general `update` and
 * `digest` (~40 % of hashing 100,000 seeded users; bench/README.md, "Scale").
 * Any other salt length takes the general path. `password.test.ts` checks
 * both agree.
 *
 * @example
 * const mac = saltMac(hmac.create(sha256, key))
 * mac(salt, out) // out holds HMAC-SHA256(key, salt)
 */
export function saltMac(keyed: _HMAC<any>): (salt: Uint8Array, out: Uint8Array) => void {
  const engine = sha256.create() as unknown as Sha256Engine
  const inner = (keyed.iHash as unknown as Sha256Engine).get()
  const outer = (keyed.oHash as unknown as Sha256Engine).get()
  const innerBlock = new Uint8Array(BLOCK)
  const innerView = new DataView(innerBlock.buffer)
  innerBlock[SALT_BYTES] = 0x80
  innerView.setUint32(BLOCK - 4, INNER_BITS)
  const outerBlock = new Uint8Array(BLOCK)
  const outerView = new DataView(outerBlock.buffer)
  outerBlock[32] = 0x80
  outerView.setUint32(BLOCK - 4, OUTER_BITS)
  let scratch: _HMAC<any> | undefined
  return (salt, out) => {
    if (salt.length !== SALT_BYTES || typeof engine.process !== 'function') {
      scratch = keyed._cloneInto(scratch)
      scratch.update(salt).digestInto(out)
      return
    }
    innerBlock.set(salt)
    engine.set(...inner)
    engine.process(innerView, 0)
    const digest = engine.get()
    for (let i = 0; i < 8; i++) outerView.setUint32(i * 4, digest[i]!)
    engine.set(...outer)
    engine.process(outerView, 0)
    const mac = engine.get()
    for (let i = 0; i < 8; i++) {
      const word = mac[i]!
      out[i * 4] = word >>> 24
      out[i * 4 + 1] = (word >>> 16) & 0xff
      out[i * 4 + 2] = (word >>> 8) & 0xff
      out[i * 4 + 3] = word & 0xff
    }
  }
}
