import { describe, expect, it } from 'vitest'
import tokens from '../../../fixtures/tokens.json' with { type: 'json' }
import validators from '../../../fixtures/validators.json' with { type: 'json' }
import defaultScenario from '../../../scenarios/default.json' with { type: 'json' }
import { toChecksumAddress } from './chain/addresses.js'
import { token, validator } from './schemas.js'
import { ledgerScenario } from './section-schemas.js'

describe('Area E fixtures (D22, D23)', () => {
  it('write every address in EIP-55 checksum form', () => {
    for (const address of [...tokens.map((item) => item.contract_address), ...validators.map((item) => item.address)]) {
      expect(address).toBe(toChecksumAddress(address))
    }
  })

  it('match the schemas as they are (a start takes them without parsing), with unique ids and addresses', () => {
    for (const item of tokens) expect(token.parse(item), item.token_id).toEqual(item)
    for (const item of validators) expect(validator.parse(item), item.name).toEqual(item)
    expect(new Set(tokens.map((item) => item.token_id)).size).toBe(tokens.length)
    expect(new Set(validators.map((item) => item.address.toLowerCase())).size).toBe(validators.length)
  })

  it('are realistic: decimals 0–18, most supplies beyond 2^53, validators in every status', () => {
    expect(Math.min(...tokens.map((item) => item.decimals))).toBe(0)
    expect(Math.max(...tokens.map((item) => item.decimals))).toBe(18)
    const big = tokens.filter((item) => BigInt(item.total_supply) > BigInt(Number.MAX_SAFE_INTEGER))
    expect(big.length).toBeGreaterThan(tokens.length / 2)
    expect(new Set(validators.map((item) => item.status))).toEqual(new Set(['active', 'inactive', 'jailed']))
  })

  it("the default scenario's ledger section is valid", () => {
    expect(ledgerScenario.safeParse(defaultScenario.ledger).success).toBe(true)
  })
})
