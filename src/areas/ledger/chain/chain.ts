import { keccakHex } from './hex.js'

/** The chain's fixed settings (D21): everything else follows from them and the clock. */
export interface ChainSettings {
  chain_id: number
  /** Milliseconds between blocks; default 6 s. */
  block_time_ms: number
  genesis_height: number
  /** ISO 8601 instant of the genesis block. */
  genesis_time: string
  /** Blocks whose hash is given (a recorded chain's); the others' hashes derive from the seed. */
  block_hashes?: Array<{ height: number; hash: string }> | undefined
}

/** One block as `GET /v1/status` shows it. */
export interface Block {
  height: number
  hash: `0x${string}`
  /** ISO 8601 instant the block was made. */
  time: string
}

/**
 * A deterministic block hash (D21, D24): keccak256 of the UTF-8 text
 * `multi-area-mock/ledger/<seed>/<height>`, so every replay with the same seed
 * sees the same hashes, and any client can recompute one.
 *
 * @example
 * blockHash(1, 0) // keccak256('multi-area-mock/ledger/1/0')
 */
export function blockHash(seed: number, height: number): `0x${string}` {
  return keccakHex(`multi-area-mock/ledger/${seed}/${height}`)
}

/**
 * The simulated chain: pure arithmetic over the settings, the seed and an
 * instant, no storage and no HTTP. One block per `block_time_ms` since genesis;
 * before the genesis time the chain stands at its genesis block.
 *
 * @example
 * const chain = new Chain({ chain_id: 31337, block_time_ms: 6000, genesis_height: 0, genesis_time: '2026-01-01T00:00:00Z' }, 1)
 * chain.heightAt(Date.parse('2026-01-01T00:01:00Z')) // 10
 */
export class Chain {
  readonly settings: ChainSettings
  readonly seed: number
  readonly #genesisMs: number
  readonly #hashes: ReadonlyMap<number, string>

  constructor(settings: ChainSettings, seed: number) {
    this.settings = settings
    this.seed = seed
    this.#genesisMs = Date.parse(settings.genesis_time)
    this.#hashes = new Map(settings.block_hashes?.map((block) => [block.height, block.hash]))
  }

  /** Height of the latest block at `nowMs`. */
  heightAt(nowMs: number): number {
    const elapsed = Math.max(0, nowMs - this.#genesisMs)
    return this.settings.genesis_height + Math.floor(elapsed / this.settings.block_time_ms)
  }

  /** The latest block at `nowMs`. */
  latestAt(nowMs: number): Block {
    return this.block(this.heightAt(nowMs))
  }

  /** A block by height (any height from genesis on, including future ones); its hash given, or derived from the seed. */
  block(height: number): Block {
    const time = this.#genesisMs + (height - this.settings.genesis_height) * this.settings.block_time_ms
    const hash = (this.#hashes.get(height) as `0x${string}` | undefined) ?? blockHash(this.seed, height)
    return { height, hash, time: new Date(time).toISOString() }
  }
}
