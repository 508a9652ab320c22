import { describe, expect, it } from 'vitest'
import { delegationMessage, delegationTypedData } from './delegation-message.js'

const fields = {
  delegatorAddress: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  validatorAddress: '0x87148EC17A1BD256911257B51321A032A2826C8E',
  amount: '1000000000000000000',
}

describe('the canonical delegation message and typed data (docs/behaviour.md, Area E)', () => {
  it('writes the EIP-191 text line by line, addresses in EIP-55 form, nonce 0 by default', () => {
    expect(delegationMessage(fields)).toBe(
      [
        'Delegate stake on multi-area-mock ledger',
        'Chain ID: 31337',
        'Delegator: 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        'Validator: 0x87148ec17A1bD256911257B51321a032a2826C8e',
        'Amount: 1000000000000000000',
        'Nonce: 0',
      ].join('\n'),
    )
    expect(delegationMessage({ ...fields, amount: 10n ** 18n, nonce: 7 }, { chainId: 1 })).toContain('Chain ID: 1\n')
    expect(delegationMessage({ ...fields, amount: 10n ** 18n, nonce: 7 })).toMatch(/\nNonce: 7$/)
  })

  it('builds EIP-712 typed data with the documented domain and type', () => {
    expect(delegationTypedData({ ...fields, nonce: '2' }, { chainId: 5 })).toEqual({
      domain: { name: 'multi-area-mock ledger', version: '1', chainId: 5 },
      types: {
        Delegation: [
          { name: 'delegatorAddress', type: 'address' },
          { name: 'validatorAddress', type: 'address' },
          { name: 'amount', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
        ],
      },
      primaryType: 'Delegation',
      message: {
        delegatorAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        validatorAddress: '0x87148ec17A1bD256911257B51321a032a2826C8e',
        amount: 1000000000000000000n,
        nonce: 2n,
      },
    })
  })

  it('refuses an address that is not one, so a frontend never signs a message the simulator would refuse', () => {
    expect(() => delegationMessage({ ...fields, delegatorAddress: '0xF39fd6e51aad88f6f4ce6ab8827279cfffb92266' })).toThrow(/checksum/)
    expect(() => delegationTypedData({ ...fields, validatorAddress: '0x1234' })).toThrow(/40 hex/)
  })
})
