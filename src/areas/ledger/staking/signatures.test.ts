import { hashMessage, hashTypedData, type Hex, keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { delegationMessage, delegationTypedData } from './delegation-message.js'
import { delegationDigest, personalMessageDigest, recoverSigner, signatureKey, typedDataDigest } from './signatures.js'

// Well-known development keys (Anvil/Hardhat accounts 0 and 1): never real funds.
const alice = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const bob = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const VALIDATOR = '0x87148ec17A1bD256911257B51321a032a2826C8e'
const fields = { delegatorAddress: alice.address, validatorAddress: VALIDATOR, amount: 10n ** 21n, nonce: 3n }
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

describe('delegation digests are what a wallet signs (viem as the independent implementation)', () => {
  it('EIP-191: the personal-sign digest of the canonical message', () => {
    expect(toHex(personalMessageDigest('hello'))).toBe(hashMessage('hello'))
    const message = delegationMessage(fields)
    expect(toHex(delegationDigest('eip191', fields))).toBe(hashMessage(message))
    expect(toHex(personalMessageDigest('Grüße, 世界'))).toBe(hashMessage('Grüße, 世界'))
  })

  it('EIP-712: the typed-data digest of the delegation, for any chain id', () => {
    expect(toHex(delegationDigest('eip712', fields))).toBe(hashTypedData(delegationTypedData(fields)))
    expect(toHex(delegationDigest('eip712', fields, { chainId: 1 }))).toBe(hashTypedData(delegationTypedData(fields, { chainId: 1 })))
  })

  it('EIP-712: a domain with a verifying contract and a struct with a string field', () => {
    const typed = {
      domain: { name: 'Other', version: '2', chainId: 5, verifyingContract: VALIDATOR },
      types: {
        Note: [
          { name: 'author', type: 'address' },
          { name: 'text', type: 'string' },
          { name: 'count', type: 'uint256' },
        ],
      },
      primaryType: 'Note',
      message: { author: alice.address, text: 'hi ✓', count: 2n ** 200n },
    } as const
    expect(toHex(typedDataDigest(typed))).toBe(hashTypedData(typed))
  })
})

describe('recoverSigner', () => {
  it('recovers the wallet that signed, in both signing modes', async () => {
    const personal = await alice.signMessage({ message: delegationMessage(fields) })
    expect(recoverSigner(delegationDigest('eip191', fields), personal)).toEqual({ address: alice.address })
    const typed = await alice.signTypedData(delegationTypedData(fields))
    expect(recoverSigner(delegationDigest('eip712', fields), typed)).toEqual({ address: alice.address })
  })

  it('recovers another address for another key or another message', async () => {
    const byBob = await bob.signMessage({ message: delegationMessage(fields) })
    expect(recoverSigner(delegationDigest('eip191', fields), byBob)).toEqual({ address: bob.address })
    const personal = await alice.signMessage({ message: delegationMessage(fields) })
    const other = recoverSigner(delegationDigest('eip191', { ...fields, amount: 1n }), personal)
    expect(other).toHaveProperty('address')
    expect(other).not.toEqual({ address: alice.address })
  })

  it('takes v as 27/28 or 0/1', async () => {
    const signature = await alice.signMessage({ message: 'hello' })
    const v = Number.parseInt(signature.slice(130), 16)
    const zeroBased = `${signature.slice(0, 130)}${(v - 27).toString(16).padStart(2, '0')}` as Hex
    expect(recoverSigner(personalMessageDigest('hello'), zeroBased)).toEqual({ address: alice.address })
  })

  it('refuses a bad v, out-of-range r or s, and the high-s mirror of a valid signature (EIP-2)', async () => {
    const digest = personalMessageDigest('hello')
    const signature = await alice.signMessage({ message: 'hello' })
    expect(recoverSigner(digest, `${signature.slice(0, 130)}1d`)).toHaveProperty('problem')
    expect(recoverSigner(digest, `0x${'0'.repeat(128)}1b`)).toHaveProperty('problem')
    expect(recoverSigner(digest, `0x${'f'.repeat(128)}1b`)).toHaveProperty('problem')
    const s = BigInt(`0x${signature.slice(66, 130)}`)
    const v = Number.parseInt(signature.slice(130), 16)
    const mirrored = `${signature.slice(0, 66)}${(N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}`
    expect(recoverSigner(digest, mirrored)).toEqual({ problem: expect.stringContaining('EIP-2') })
  })
})

describe('signatureKey', () => {
  it('ignores case and v, so a re-encoded signature is still the same one', () => {
    const signature = `0x${'ab'.repeat(64)}1b`
    expect(signatureKey(signature.toUpperCase().replace('0X', '0x'))).toBe(signatureKey(signature))
    expect(signatureKey(`${signature.slice(0, 130)}00`)).toBe(signatureKey(signature))
    expect(signatureKey(`0x${'ab'.repeat(63)}ac1b`)).not.toBe(signatureKey(signature))
  })

  const mirror = (signature: string) => {
    const s = BigInt(`0x${signature.slice(66, 130)}`)
    const v = Number.parseInt(signature.slice(130), 16)
    return `${signature.slice(0, 66)}${(N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}`
  }

  it('keys the high-s mirror (r, n − s, other v) of a signature as the signature itself', async () => {
    const real = await alice.signMessage({ message: 'hello' })
    expect(signatureKey(mirror(real))).toBe(signatureKey(real))
    const made = `0x${'11'.repeat(32)}${'2'.padStart(64, '0')}1b`
    expect(signatureKey(mirror(made))).toBe(signatureKey(made))
    expect(signatureKey(mirror(made).toUpperCase().replace('0X', '0x'))).toBe(signatureKey(made))
    // n is odd: (n − 1)/2, the largest low s, and (n + 1)/2, the smallest high one, are each other's mirror.
    const half = (N - 1n) / 2n
    const at = (s: bigint) => signatureKey(`0x${'11'.repeat(32)}${s.toString(16).padStart(64, '0')}1b`)
    expect(at(half + 1n)).toBe(at(half))
    expect(at(N - 1n)).toBe(at(1n))
    expect(at(half - 1n)).not.toBe(at(half))
  })

  it('leaves the key of a low-s signature as it always was, so saved replay keys still match', () => {
    const signature = `0x${'AB'.repeat(32)}${'3c'.repeat(32)}1c`
    expect(signatureKey(signature)).toBe(keccak256(toHex(`multi-area-mock/replay/${'ab'.repeat(32)}${'3c'.repeat(32)}`)))
  })

  it('keeps an s that is no ECDSA value (0, n and above) as written: it has no mirror', () => {
    const at = (s: bigint) => signatureKey(`0x${'11'.repeat(32)}${s.toString(16).padStart(64, '0')}1b`)
    expect(new Set([at(0n), at(N), at(N + 1n), at(2n ** 256n - 1n), at(1n)]).size).toBe(5)
  })
})
