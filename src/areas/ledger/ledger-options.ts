import * as z from 'zod'
import { option } from '../../kernel/options/option-meta.js'
import { parseOptions } from '../../kernel/options/parse-options.js'
import { blockTime } from './schemas.js'
import { SIGNATURE_MODES, type SignatureMode } from './staking/signatures.js'

/**
 * Area E's options (from `createSimulator` or the CLI's `--signature-mode`
 * and `--block-time`); a bad value is a `ConfigError` naming it, raised when
 * the simulator is created.
 *
 * @example
 * createSimulator({ signatureMode: 'eip191', blockTime: '2s' })
 */
export const ledgerOptions = {
  /** Area E: how delegation signatures are checked (D23): `format` (default, shape only), `eip191` or `eip712`. */
  signatureMode: option(z.enum(SIGNATURE_MODES, `expected one of ${SIGNATURE_MODES.join(', ')}`).default('format'), {
    label: 'signature mode',
    cli: { flag: '--signature-mode <mode>', description: 'Area E: how delegation signatures are checked: shape only, or the signer recovered from EIP-191 or EIP-712' },
  }),
  /** Area E: time between blocks (D21), milliseconds or a duration like `'6s'`. Default: the scenario's, else 6 s. */
  blockTime: option(blockTime.optional(), {
    label: 'block time',
    cli: { flag: '--block-time <duration>', description: "Area E: time between blocks, e.g. 6s or 500 (ms) (default: the scenario's, else 6s)" },
  }),
}

/** Area E's options, checked. */
export interface LedgerSettings {
  signatureMode: SignatureMode
  /** `undefined`: the scenario's block time, else 6 s. */
  blockTimeMs: number | undefined
}

/**
 * Area E's options as its routes and section use them.
 *
 * @example
 * ledgerSettings({ signatureMode: 'eip191', blockTime: '2s' }) // { signatureMode: 'eip191', blockTimeMs: 2000 }
 */
export function ledgerSettings(options: unknown): LedgerSettings {
  const parsed = parseOptions(z.object(ledgerOptions), options)
  return { signatureMode: parsed.signatureMode, blockTimeMs: parsed.blockTime }
}
