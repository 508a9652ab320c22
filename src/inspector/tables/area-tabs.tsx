import { useState } from 'preact/hooks'
import type { Api } from '../api.js'
import { ChainPanel } from './chain-panel.js'
import { GeneralTables } from './general-tables.js'
import { PairsTable } from './pairs-table.js'
import { ProductsTable } from './products-table.js'
import { type Tab, Tabs } from '../tabs.js'
import { UsersTable } from './users-table.js'
import { areaBase, type WorldData } from '../data/world-data.js'

/** One tab per kind of data, for the areas this server mounts (users are shared by Areas A, B and D and always there); `readOnly`: an earlier world (the time line), shown without the buttons and fields that write. */
export function AreaTabs({ api, data, now, readOnly = false }: { api: Api; data: WorldData; now: number; readOnly?: boolean }) {
  const [tab, setTab] = useState('users')
  const { state, areas } = data
  const admin = readOnly ? undefined : areaBase(areas, 'admin')
  const tabs: Tab[] = [{ id: 'users', label: 'Users', render: () => <UsersTable api={api} users={state.accounts.users} admin={admin} /> }]
  const core = areaBase(areas, 'core')
  if (core !== undefined) tabs.push({ id: 'products', label: 'Products', render: () => <ProductsTable api={api} products={state.core.products} core={core} readOnly={readOnly} /> })
  if (areaBase(areas, 'quantum') !== undefined) tabs.push({ id: 'pairs', label: 'Particle pairs', render: () => <PairsTable pairs={state.quantum.pairs} /> })
  if (areaBase(areas, 'general') !== undefined) {
    tabs.push({
      id: 'general',
      label: 'Resources & notifications',
      render: () => <GeneralTables resources={state.general.resources} notifications={state.general.notifications} now={now} />,
    })
  }
  if (areaBase(areas, 'ledger') !== undefined) tabs.push({ id: 'chain', label: 'Chain', render: () => <ChainPanel ledger={state.ledger} seed={state.seed} now={now} /> })
  return <Tabs label="Areas" tabs={tabs} selected={tab} onSelect={setTab} />
}
