import { Chain, type ChainSettings } from '../../areas/ledger/chain/chain.js'
import { instant, short, units } from '../format.js'
import { DataTable } from './data-table.js'

interface Token {
  token_id: string
  name: string
  symbol: string
  decimals: number
  total_supply: string
}

interface Validator {
  address: string
  name: string
  commission: number
  status: string
}

interface Delegation {
  transaction_hash: string
  delegator_address: string
  validator_address: string
  amount: string
  submitted_at: string
  block_height: number
  status?: string
}

/**
 * Area E: the chain's head, computed from the state's chain settings, the
 * world's seed and the clock exactly as the area does (D21: any client can),
 * so a running clock moves it without a request; then tokens, validators and
 * delegations (pending until the chain reaches their block).
 */
export function ChainPanel({
  ledger,
  seed,
  now,
}: {
  ledger: { chain: ChainSettings; tokens: Token[]; validators: Validator[]; delegations: Delegation[] }
  seed: number
  now: number
}) {
  const head = new Chain(ledger.chain, seed).latestAt(now)
  const names = new Map(ledger.validators.map((validator) => [validator.address.toLowerCase(), validator.name]))
  return (
    <section aria-label="Chain" class="stack">
      <dl class="facts">
        <div>
          <dt>Height</dt>
          <dd data-testid="chain-height">{head.height}</dd>
        </div>
        <div>
          <dt>Last block hash</dt>
          <dd>
            <code class="wrap">{head.hash}</code>
          </dd>
        </div>
        <div>
          <dt>Block time</dt>
          <dd>{ledger.chain.block_time_ms / 1000} s</dd>
        </div>
        <div>
          <dt>Chain id</dt>
          <dd>{ledger.chain.chain_id}</dd>
        </div>
      </dl>
      <DataTable
        caption="Delegations"
        columns={['Transaction', 'Delegator', 'Validator', 'Amount', 'Block', 'Status']}
        after={ledger.delegations.length === 0 && <p class="empty">No delegations: make one with POST /ledger/v1/stake/delegate.</p>}
      >
        {[...ledger.delegations].reverse().map((delegation) => {
          const included = delegation.block_height <= head.height
          return (
            <tr key={delegation.transaction_hash}>
              <th scope="row" title={delegation.transaction_hash}>
                <code>{short(delegation.transaction_hash)}</code>
              </th>
              <td title={delegation.delegator_address}>
                <code>{short(delegation.delegator_address)}</code>
              </td>
              <td title={delegation.validator_address}>{names.get(delegation.validator_address.toLowerCase()) ?? short(delegation.validator_address)}</td>
              <td>{units(delegation.amount)}</td>
              <td>{delegation.block_height}</td>
              <td>
                <span class={`pill ${included ? 'active' : 'pending'}`}>{included ? 'included' : 'pending'}</span>
              </td>
            </tr>
          )
        })}
      </DataTable>
      <DataTable caption="Validators" columns={['Name', 'Address', 'Commission', 'Status']}>
        {ledger.validators.map((validator) => (
          <tr key={validator.address}>
            <th scope="row">{validator.name}</th>
            <td title={validator.address}>
              <code>{short(validator.address)}</code>
            </td>
            <td>{validator.commission} %</td>
            <td>
              <span class={`pill ${validator.status === 'active' ? 'active' : 'inactive'}`}>{validator.status}</span>
            </td>
          </tr>
        ))}
      </DataTable>
      <DataTable caption="Tokens" columns={['Symbol', 'Name', 'Id', 'Total supply']}>
        {ledger.tokens.map((token) => (
          <tr key={token.token_id}>
            <th scope="row">{token.symbol}</th>
            <td>{token.name}</td>
            <td>
              <code>{token.token_id}</code>
            </td>
            <td>{units(token.total_supply, token.decimals)}</td>
          </tr>
        ))}
      </DataTable>
      <p class="note">Head at {instant(head.time)} on the simulator clock.</p>
    </section>
  )
}
