import type * as z from 'zod'
import type { SectionRecording } from '../../world/recording.js'
import { token } from './schemas.js'
import type { ledgerScenario } from './section-schemas.js'

/** Area E's scenario section. */
export const LEDGER_SECTION = 'ledger'
/** Collections its answers' records are kept in: blocks by height, tokens by id, delegations by transaction hash. */
export const RECORDED_BLOCKS = 'blocks'
export const RECORDED_TOKENS = 'tokens'
export const RECORDED_DELEGATIONS = 'delegations'

type LedgerInput = z.input<typeof ledgerScenario>
type Fields = Readonly<Record<string, unknown>>
interface Block {
  height: number
  hash: string
  time: string
}

/**
 * The `ledger` section of a recorded scenario:
 *
 * - the chain as the status answers showed it: it starts at the first block
 *   seen (its height and time the genesis), keeps the hashes seen, and its
 *   block time is the one two blocks seen show (else the start scenario's);
 *   the chain id, which no answer shows, is the start scenario's;
 * - the tokens read, every digit kept;
 * - no validator: no answer shows a validator's whole record (its
 *   commission), and none is invented; so a delegation, which must name a
 *   listed validator, is left out with why.
 *
 * @example
 * recordedLedger.scenario(recorded, { chain_id: 5, tokens: 'fixture' }).scenario
 * // { chain_id: 5, genesis: { height: 5256000, time: '2026-01-01T00:00:00.000Z' }, block_hashes: [...], tokens: [...], validators: [], delegations: [] }
 */
export const recordedLedger: SectionRecording<LedgerInput> = {
  key: LEDGER_SECTION,
  scenario({ collections }, base) {
    const { chain_id, block_time, genesis } = (base ?? {}) as LedgerInput
    const left: string[] = []
    const blocks = [...(collections.get(RECORDED_BLOCKS)?.values() ?? [])].map((fields) => fields as unknown as Block).sort((a, b) => a.height - b.height)
    const chain: Partial<LedgerInput> = {
      ...(chain_id === undefined ? {} : { chain_id }),
      ...(block_time === undefined ? {} : { block_time }),
      ...(genesis === undefined ? {} : { genesis }),
    }
    const first = blocks[0]
    if (first !== undefined) {
      chain.genesis = { height: first.height, time: first.time }
      chain.block_hashes = blocks.map(({ height, hash }) => ({ height, hash }))
      const shown = blockTime(blocks)
      if (shown !== undefined) chain.block_time = shown
    }

    const tokens: Array<Record<string, unknown>> = []
    for (const [id, fields] of collections.get(RECORDED_TOKENS) ?? new Map<string, Fields>()) {
      const checked = token.safeParse(fields)
      if (checked.success) tokens.push({ ...fields })
      else left.push(`${RECORDED_TOKENS}/${id}: a scenario cannot hold it (${checked.error.issues[0]?.path.join('.')} ${checked.error.issues[0]?.message})`)
    }

    // No answer of Area E shows a validator's whole record (its commission): none is recorded, none invented,
    // and a delegation must name a listed validator, so each one seen is left out, saying so.
    for (const [hash, fields] of collections.get(RECORDED_DELEGATIONS) ?? new Map<string, Fields>()) {
      left.push(
        `${RECORDED_DELEGATIONS}/${hash}: its validator ${String(fields.validator_address)} is not in the scenario: no answer shows a validator's whole record, and none is invented`,
      )
    }
    return { scenario: { ...chain, tokens: tokens as LedgerInput['tokens'], validators: [], delegations: [] }, left }
  },
}

/** The block time two blocks seen show: whole milliseconds per block, when they divide evenly. */
function blockTime(blocks: readonly Block[]): number | undefined {
  const first = blocks[0]!
  const last = blocks[blocks.length - 1]!
  if (last.height === first.height) return undefined
  const perBlock = (Date.parse(last.time) - Date.parse(first.time)) / (last.height - first.height)
  return Number.isSafeInteger(perBlock) && perBlock >= 1 ? perBlock : undefined
}
