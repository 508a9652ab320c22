import { defineArea } from '../area.js'
import { createLedgerCollections } from './collections.js'
import { Ledger } from './ledger.js'
import { ledgerOptions, ledgerSettings } from './ledger-options.js'
import { ledgerRecording } from './recording.js'
import { ledgerRoutes } from './routes.js'
import { ledgerSection, ledgerSectionSchemas } from './section.js'

/** Area E, the ledger network (chain, tokens, signed stake delegations), mounted at `/ledger` by default (D1). */
export const ledgerArea = defineArea({
  id: 'ledger',
  letter: 'E',
  title: 'Ledger network: chain, tokens, staking',
  prefix: '/ledger',
  options: ledgerOptions,
  section: ledgerSectionSchemas,
  recording: ledgerRecording,
  create({ world, options }) {
    const settings = ledgerSettings(options)
    const collections = createLedgerCollections()
    const ledger = new Ledger(world, collections)
    return {
      routes: ledgerRoutes({ world, ledger, settings }),
      collections,
      section: ledgerSection(world, ledger, { blockTimeMs: settings.blockTimeMs }),
    }
  },
})

export {
  DEFAULT_CHAIN_ID,
  DELEGATION_DOMAIN,
  DELEGATION_TYPES,
  type DelegationFields,
  type DelegationSigningOptions,
  type DelegationTypedData,
  delegationMessage,
  delegationTypedData,
} from './staking/delegation-message.js'
export { blockHash } from './chain/chain.js'
export { transactionHash } from './staking/stake-delegation.js'
export { delegationDigest, type SignatureMode } from './staking/signatures.js'
export type { LedgerCollections } from './collections.js'
export type * from './operations.js'
