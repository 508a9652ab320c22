import { fillCollection } from '../../kernel/data/fill-collection.js'
import { RecordIndex } from '../../kernel/data/record-index.js'
import type { World } from '../../world/world.js'
import { toChecksumAddress } from './chain/addresses.js'
import { Chain, type ChainSettings } from './chain/chain.js'
import type { LedgerCollections } from './collections.js'
import type { Delegation, Token, Validator } from './schemas.js'
import type { LedgerState } from './section-schemas.js'
import { signatureKey } from './staking/signatures.js'

/** Everything the ledger holds, ready to be put in place by `Ledger.replace`. */
export interface LedgerContents {
  chain: ChainSettings
  tokens: Token[]
  validators: Validator[]
  delegations: Delegation[]
}

/**
 * Area E's world: the chain settings, tokens, validators and accepted
 * delegations, with O(1) lookups by token id, validator address (any case) and
 * signature (for replay protection, D23). One per simulator.
 *
 * @example
 * const ledger = new Ledger(world, createLedgerCollections())
 * ledger.chain().latestAt(Date.now()).height
 */
export class Ledger {
  readonly collections: LedgerCollections
  readonly #world: World
  readonly #tokens: RecordIndex<Token>
  readonly #validators: RecordIndex<Validator>
  readonly #bySignature: RecordIndex<Delegation>
  /** Signatures of delegations being stored right now, so two concurrent requests cannot both use one. */
  readonly #reserved = new Set<string>()
  #settings: ChainSettings | undefined

  constructor(world: World, collections: LedgerCollections) {
    this.#world = world
    this.collections = collections
    this.#tokens = new RecordIndex<Token>(collections.tokens, (item) => item.token_id)
    this.#validators = new RecordIndex<Validator>(collections.validators, (item) => item.address.toLowerCase())
    this.#bySignature = new RecordIndex<Delegation>(collections.delegations, replayKey)
  }

  /** The chain as it stands: settings from the scenario or state, hashes from the world's seed. */
  chain(): Chain {
    if (!this.#settings) throw new Error('The ledger has not been loaded yet.')
    return new Chain(this.#settings, this.#world.seed)
  }

  token(id: string): Token | undefined {
    return this.#tokens.get(id)
  }

  validator(address: string): Validator | undefined {
    return this.#validators.get(address.toLowerCase())
  }

  /** The delegation that used this signature already, if any (`r` and `s` compared, D23). */
  usedSignature(signature: string): Delegation | undefined {
    return this.#bySignature.get(signatureKey(signature))
  }

  /** Stores an accepted delegation unless its signature is already used or being stored; `false` then. */
  async record(item: Delegation): Promise<boolean> {
    const key = replayKey(item)
    if (this.#reserved.has(key) || this.#bySignature.has(key)) return false
    this.#reserved.add(key)
    try {
      await this.collections.delegations.create(item)
      return true
    } finally {
      this.#reserved.delete(key)
    }
  }

  /**
   * Empties the ledger, then fills it; addresses are stored in EIP-55 form.
   * `trusted`: its own export (see fillCollection), addresses already in that form;
   * `fixtures`: the tokens or validators are the fixtures, valid and in EIP-55 form as they are (fixtures.test.ts).
   */
  async replace(contents: LedgerContents, options: { trusted?: boolean; fixtures?: { tokens: boolean; validators: boolean } } = {}): Promise<void> {
    const { tokens, validators, delegations } = this.collections
    // A copy (block hashes included): the settings share nothing with the document they came from.
    this.#settings = structuredClone(contents.chain)
    tokens.clear()
    validators.clear()
    delegations.clear()
    // What is trusted is valid and in EIP-55 form already: neither validated nor checksummed again.
    const trusted = {
      tokens: options.trusted === true || options.fixtures?.tokens === true,
      validators: options.trusted === true || options.fixtures?.validators === true,
      delegations: options.trusted === true,
    }
    const checksum = (trust: boolean, address: string) => (trust ? address : toChecksumAddress(address))
    await fillCollection(
      tokens,
      contents.tokens.map((item) => ({ ...item, contract_address: checksum(trusted.tokens, item.contract_address) })),
      { trusted: trusted.tokens },
    )
    await fillCollection(
      validators,
      contents.validators.map((item) => ({ ...item, address: checksum(trusted.validators, item.address) })),
      { trusted: trusted.validators },
    )
    const stored = contents.delegations.map((item) => ({
      ...item,
      delegator_address: checksum(trusted.delegations, item.delegator_address),
      validator_address: checksum(trusted.delegations, item.validator_address),
    }))
    await fillCollection(delegations, stored, { trusted: trusted.delegations })
  }

  /**
   * The ledger as the state API shows it; each delegation's `status` follows the
   * clock (D21). Signatures only with `secrets` (in-process snapshots): the state
   * API never shows one, like password hashes.
   */
  export({ secrets }: { secrets: boolean }): Required<LedgerState> {
    const height = this.chain().heightAt(this.#world.clock.nowMs())
    return {
      chain: structuredClone(this.#settings!),
      tokens: this.collections.tokens.all().map((item) => ({ ...item })),
      validators: this.collections.validators.all().map((item) => ({ ...item })),
      delegations: this.collections.delegations.all().map(({ signature, ...item }) => {
        const replay = signature ? signatureKey(signature) : item.replay_key
        return {
          ...item,
          ...(secrets ? { signature } : {}),
          ...(replay ? { replay_key: replay } : {}),
          status: item.block_height <= height ? 'included' : 'pending',
        }
      }),
    }
  }
}

/** Seeded delegations may have no signature; their transaction hash keeps the key unique. */
function replayKey(item: Delegation): string {
  return item.signature ? signatureKey(item.signature) : (item.replay_key ?? item.transaction_hash)
}
