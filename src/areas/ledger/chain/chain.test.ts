import { keccak256, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { blockHash, Chain } from './chain.js'

const settings = { chain_id: 31337, block_time_ms: 6000, genesis_height: 100, genesis_time: '2026-01-01T00:00:00.000Z' }
const at = (iso: string) => Date.parse(iso)

describe('Chain (D21)', () => {
  it('grows by one block per block time from genesis', () => {
    const chain = new Chain(settings, 1)
    expect(chain.heightAt(at('2026-01-01T00:00:00Z'))).toBe(100)
    expect(chain.heightAt(at('2026-01-01T00:00:05.999Z'))).toBe(100)
    expect(chain.heightAt(at('2026-01-01T00:00:06Z'))).toBe(101)
    expect(chain.heightAt(at('2026-01-01T01:00:00Z'))).toBe(700)
    expect(new Chain({ ...settings, block_time_ms: 500 }, 1).heightAt(at('2026-01-01T00:00:06Z'))).toBe(112)
  })

  it('stands at its genesis block before the genesis time', () => {
    expect(new Chain(settings, 1).latestAt(at('2025-12-31T00:00:00Z'))).toMatchObject({ height: 100, time: '2026-01-01T00:00:00.000Z' })
  })

  it('gives each block the time it was made', () => {
    const chain = new Chain(settings, 1)
    expect(chain.latestAt(at('2026-01-01T00:00:13Z'))).toMatchObject({ height: 102, time: '2026-01-01T00:00:12.000Z' })
    expect(chain.block(101).time).toBe('2026-01-01T00:00:06.000Z')
  })

  it('hashes blocks from seed and height as documented: keccak256("multi-area-mock/ledger/<seed>/<height>") (D24)', () => {
    expect(blockHash(1, 0)).toBe(keccak256(toHex('multi-area-mock/ledger/1/0')))
    expect(blockHash(-7, 5256000)).toBe(keccak256(toHex('multi-area-mock/ledger/-7/5256000')))
    expect(blockHash(1, 1)).toMatch(/^0x[0-9a-f]{64}$/)
    expect(blockHash(1, 1)).not.toBe(blockHash(2, 1))
    expect(blockHash(1, 1)).not.toBe(blockHash(1, 2))
    expect(new Chain(settings, 9).latestAt(at('2026-01-01T00:00:06Z')).hash).toBe(blockHash(9, 101))
  })
})
