import { getAddress, keccak256, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { addressProblem, toChecksumAddress } from './addresses.js'

// The test vectors of EIP-55 itself.
const EIP55 = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
]

describe('EIP-55 addresses (D23)', () => {
  it('computes the checksum of the EIP-55 test vectors and of viem, whatever case is given', () => {
    for (const address of EIP55) {
      expect(toChecksumAddress(address.toLowerCase())).toBe(address)
      expect(toChecksumAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(address)
    }
    for (let i = 0; i < 50; i++) {
      const lower = `0x${keccak256(toHex(`address ${i}`)).slice(-40)}`
      expect(toChecksumAddress(lower)).toBe(getAddress(lower))
    }
  })

  it('accepts all lower case, all upper case and a correct checksum', () => {
    for (const address of EIP55) {
      expect(addressProblem(address)).toBeUndefined()
      expect(addressProblem(address.toLowerCase())).toBeUndefined()
      expect(addressProblem(`0x${address.slice(2).toUpperCase()}`)).toBeUndefined()
    }
  })

  it('refuses a mixed-case address whose checksum is wrong', () => {
    const address = EIP55[0]!
    // Flip the case of one letter.
    const index = address.search(/[a-f]/)
    const wrong = address.slice(0, index) + address[index]!.toUpperCase() + address.slice(index + 1)
    expect(addressProblem(wrong)).toBe('checksum')
  })

  it('refuses anything but 0x and 40 hex digits', () => {
    for (const text of [
      '',
      '0x',
      'de709f2102306220921060314715629080e2fb77',
      '0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      `${EIP55[0]}0`,
      EIP55[0]!.slice(0, 41),
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg',
    ]) {
      expect(addressProblem(text), text).toBe('shape')
    }
  })
})
