import type { AreaOptions } from '../area.js'
import { ConfigError } from '../../kernel/clock.js'
import { blockTime } from './schemas.js'
import { SIGNATURE_MODES, type SignatureMode } from './signatures.js'
import { safeParse } from '../../kernel/validate.js'

/** Area E's options, checked. */
export interface LedgerSettings {
  signatureMode: SignatureMode
  /** `undefined`: the scenario's block time, else 6 s. */
  blockTimeMs: number | undefined
}

/**
 * Checks `signatureMode` and `blockTime` (from `createSimulator` or the CLI's
 * `--signature-mode` and `--block-time`); a bad value is a `ConfigError`
 * naming it, raised when the simulator is created.
 *
 * @example
 * ledgerSettings({ signatureMode: 'eip191', blockTime: '2s' }) // { signatureMode: 'eip191', blockTimeMs: 2000 }
 */
export function ledgerSettings(options: AreaOptions): LedgerSettings {
  const mode = options.signatureMode ?? 'format'
  if (!SIGNATURE_MODES.includes(mode)) {
    throw new ConfigError(`Invalid signature mode "${String(mode)}" (signatureMode, --signature-mode): expected one of ${SIGNATURE_MODES.join(', ')}.`)
  }
  if (options.blockTime === undefined) return { signatureMode: mode, blockTimeMs: undefined }
  const parsed = safeParse(blockTime, options.blockTime)
  if (!parsed.success) throw new ConfigError(`Invalid block time "${String(options.blockTime)}" (blockTime, --block-time): it ${parsed.error.issues[0]!.message}.`)
  return { signatureMode: mode, blockTimeMs: parsed.data }
}
