import { keccakHex } from '../chain/hex.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { toChecksumAddress } from '../chain/addresses.js'
import { type DelegationFields, type DelegationSigningOptions, delegationMessage, delegationTypedData } from './delegation-message.js'

/** How `POST /v1/stake/delegate` checks `signature` (D23). */
export type SignatureMode = 'format' | 'eip191' | 'eip712'
export const SIGNATURE_MODES = ['format', 'eip191', 'eip712'] as const satisfies readonly SignatureMode[]

/** The signer a signature recovers to, or why none does. */
export type Recovered = { address: `0x${string}` } | { problem: string }

/**
 * The digest a wallet signs for a delegation in a signing mode: EIP-191
 * `personal_sign` over `delegationMessage`, or EIP-712 over `delegationTypedData`.
 *
 * @example
 * recoverSigner(delegationDigest('eip191', fields), signature)
 */
export function delegationDigest(mode: 'eip191' | 'eip712', delegation: DelegationFields, options: DelegationSigningOptions = {}): Uint8Array {
  return mode === 'eip191' ? personalMessageDigest(delegationMessage(delegation, options)) : typedDataDigest(delegationTypedData(delegation, options))
}

/**
 * EIP-191 version 0x45: keccak256("\x19Ethereum Signed Message:\n" + byte length + message).
 *
 * @example
 * personalMessageDigest('hello')
 */
export function personalMessageDigest(message: string): Uint8Array {
  const body = utf8ToBytes(message)
  return keccak_256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${body.length}`), body))
}

type Field = { readonly name: string; readonly type: string }
type Atom = string | number | bigint

/**
 * EIP-712: keccak256(0x1901 ‖ hashStruct(domain) ‖ hashStruct(message)), for
 * structs of `address`, `uint256` and `string` fields: all a delegation and
 * its domain use. Cross-checked against viem's `hashTypedData` in the tests.
 *
 * @example
 * typedDataDigest(delegationTypedData(fields))
 */
export function typedDataDigest(typed: { domain: Record<string, Atom>; types: Record<string, readonly Field[]>; primaryType: string; message: Record<string, Atom> }): Uint8Array {
  const domainFields = (['name', 'version', 'chainId', 'verifyingContract'] as const)
    .filter((name) => typed.domain[name] !== undefined)
    .map((name) => ({ name, type: name === 'chainId' ? 'uint256' : name === 'verifyingContract' ? 'address' : 'string' }))
  return keccak_256(
    concatBytes(Uint8Array.of(0x19, 0x01), hashStruct('EIP712Domain', domainFields, typed.domain), hashStruct(typed.primaryType, typed.types[typed.primaryType]!, typed.message)),
  )
}

function hashStruct(name: string, fields: readonly Field[], values: Record<string, Atom>): Uint8Array {
  const type = `${name}(${fields.map((field) => `${field.type} ${field.name}`).join(',')})`
  return keccak_256(concatBytes(keccak_256(utf8ToBytes(type)), ...fields.map((field) => encodeAtom(field.type, values[field.name]!))))
}

function encodeAtom(type: string, value: Atom): Uint8Array {
  if (type === 'string') return keccak_256(utf8ToBytes(String(value)))
  if (type === 'address') return word(BigInt(String(value)))
  if (type === 'uint256') return word(BigInt(value))
  throw new TypeError(`EIP-712 type "${type}" is not supported here.`)
}

/** A value as one 32-byte big-endian ABI word. */
function word(value: bigint): Uint8Array {
  return hexToBytes(value.toString(16).padStart(64, '0'))
}

/**
 * The address whose key made `signature` (`0x` + 130 hex: r, s, v) over
 * `digest`. `v` may be 27/28 or 0/1. High-s signatures are refused (EIP-2),
 * as wallets never make them; replay protection does not rely on it
 * (`signatureKey` keys the mirrored form the same).
 *
 * @example
 * const recovered = recoverSigner(personalMessageDigest('hello'), signature)
 * if ('address' in recovered) console.log(recovered.address)
 */
export function recoverSigner(digest: Uint8Array, signature: string): Recovered {
  const bytes = hexToBytes(signature.slice(2))
  const v = bytes[64]!
  const recovery = v >= 27 ? v - 27 : v
  if (recovery !== 0 && recovery !== 1) return { problem: `its last byte (v) is ${v}; expected 27, 28, 0 or 1` }
  let parsed: ReturnType<typeof secp256k1.Signature.fromBytes>
  try {
    parsed = secp256k1.Signature.fromBytes(bytes.subarray(0, 64), 'compact')
  } catch {
    return { problem: 'its r or s is outside the secp256k1 curve order' }
  }
  if (parsed.hasHighS()) return { problem: 'its s is in the upper half of the curve order; wallets sign with a low s (EIP-2)' }
  try {
    const publicKey = parsed.addRecoveryBit(recovery).recoverPublicKey(digest).toBytes(false)
    return { address: toChecksumAddress(`0x${bytesToHex(keccak_256(publicKey.subarray(1)).subarray(12))}`) }
  } catch {
    return { problem: 'no public key can be recovered from it' }
  }
}

/** secp256k1's group order n: `(r, s)` and `(r, n − s)` are both valid for the same key and digest. */
const ORDER = secp256k1.Point.Fn.ORDER

/**
 * What makes two signatures "the same" for replay protection (D23), in every
 * mode: r and s, in lower case, with s taken in its low form (an s above n/2
 * becomes n − s). `v` is left out: it only picks one of two candidate keys, so
 * the same r and s with v written as 0/1 instead of 27/28, and the mirrored
 * `(r, n − s, other v)` anyone can make from a signature without the key, are
 * still a reuse. An s of 0 or n and above is no ECDSA scalar and has no
 * mirror: it is kept as written. Hashed (keccak256), so the state API can show
 * it as `replay_key` without showing the signature.
 *
 * @example
 * signatureKey('0xAB…1b') === signatureKey('0xab…00') // true
 * signatureKey(`0x${r}${s}1b`) === signatureKey(`0x${r}${n - s}1c`) // true
 */
export function signatureKey(signature: string): `0x${string}` {
  const r = signature.slice(2, 66).toLowerCase()
  const s = BigInt(`0x${signature.slice(66, 130)}`)
  const low = s > ORDER / 2n && s < ORDER ? ORDER - s : s
  return keccakHex(`multi-area-mock/replay/${r}${low.toString(16).padStart(64, '0')}`)
}
