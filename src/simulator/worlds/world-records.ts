import productsFixture from '../../../fixtures/products.json' with { type: 'json' }
import tokensFixture from '../../../fixtures/tokens.json' with { type: 'json' }
import validatorsFixture from '../../../fixtures/validators.json' with { type: 'json' }
import { DEFAULT_RESOURCE_COUNT } from '../../areas/general/schemas.js'
import type { Scenario } from '../state/scenario-schema.js'

/** Records per collection, named as `sim.counts()` names them (`users`, `particles`...). */
export type RecordCounts = Record<string, number>

/**
 * The records a validated scenario seeds, per collection, read from what it
 * declares (every `generate` count, every list, the fixtures it names, the
 * sections' defaults), so a world's size is known before anything is
 * generated. `mounted`: the section keys the simulator loads (default: all);
 * the other sections seed nothing. Equals `sim.counts()` right after the load
 * (src/simulator/worlds/world-records.test.ts holds the two together).
 *
 * @example
 * scenarioRecords(resolveScenario(builtinScenarios, 'default').scenario) // { users: 48, products: 24, particles: 14, ... }
 */
export function scenarioRecords(scenario: Scenario, mounted?: ReadonlySet<string>): RecordCounts {
  const loads = (key: string) => mounted === undefined || mounted.has(key)
  const counts: RecordCounts = {}
  const add = (name: string, count: number) => {
    if (count > 0) counts[name] = (counts[name] ?? 0) + count
  }
  const { accounts, core, quantum, general, ledger } = scenario
  // The accounts load in every simulator: Areas A, B and D share them (D5).
  add('users', (accounts?.users.length ?? 0) + sum(Object.values(accounts?.generate ?? {})))
  if (loads('core')) {
    const products = core?.products ?? 'catalogue'
    add('products', products === 'catalogue' ? productsFixture.length : products.length)
  }
  if (loads('quantum')) {
    const generated = Object.values(quantum?.generate ?? {}).flatMap((counts) => Object.values(counts ?? {}))
    add('particles', 2 * ((quantum?.pairs.length ?? 0) + sum(generated)))
  }
  if (loads('general')) {
    add('resources', general ? general.resources.length + general.generate : DEFAULT_RESOURCE_COUNT)
    add('notifications', general?.notifications.length ?? 0)
  }
  if (loads('ledger')) {
    const tokens = ledger?.tokens ?? 'fixture'
    const validators = ledger?.validators ?? 'fixture'
    add('tokens', tokens === 'fixture' ? tokensFixture.length : tokens.length)
    add('validators', validators === 'fixture' ? validatorsFixture.length : validators.length)
    add('delegations', ledger?.delegations.length ?? 0)
  }
  return counts
}

/**
 * The records a state document (`PUT /__mock/state`, `sim.importState`) lists,
 * per collection, counted on the document as given, before it is validated:
 * users, products, kept points (`readings`), particles (two per pair),
 * resources, notifications, tokens, validators and delegations. A part that
 * is not a list counts nothing; validation refuses it later.
 *
 * @example
 * stateRecords({ accounts: { users: [a, b] }, quantum: { pairs: [p] } }) // { users: 2, particles: 2 }
 */
export function stateRecords(state: unknown): RecordCounts {
  const counts: RecordCounts = {}
  const add = (name: string, count: number) => {
    if (count > 0) counts[name] = (counts[name] ?? 0) + count
  }
  const list = (section: string, key: string): unknown[] => {
    const value = field(field(state, section), key)
    return Array.isArray(value) ? value : []
  }
  add('users', list('accounts', 'users').length)
  add('products', list('core', 'products').length)
  add('readings', sum(list('core', 'readings').map((reading) => lengthOf(field(reading, 'points')))))
  add('particles', 2 * list('quantum', 'pairs').length)
  add('resources', list('general', 'resources').length)
  add('notifications', list('general', 'notifications').length)
  for (const key of ['tokens', 'validators', 'delegations']) add(key, list('ledger', key).length)
  return counts
}

/** Every record of `counts`. */
export function totalRecords(counts: RecordCounts): number {
  return sum(Object.values(counts))
}

/**
 * `counts` in words, largest first, for messages: `300,000 users, 24 products`.
 *
 * @example
 * describeRecords({ products: 24, users: 300_000 }) // '300,000 users, 24 products'
 */
export function describeRecords(counts: RecordCounts, most = 4): string {
  const parts = Object.entries(counts)
    .filter(([, count]) => count > 0)
    .sort(([, a], [, b]) => b - a)
  const shown = parts.slice(0, most).map(([name, count]) => `${formatCount(count)} ${name}`)
  if (parts.length > most) shown.push('…')
  return shown.join(', ') || 'nothing'
}

/** `300000` as `300,000`, the same in every locale. */
export function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

function sum(values: ReadonlyArray<number | undefined>): number {
  let total = 0
  for (const value of values) total += value ?? 0
  return total
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined
}

function lengthOf(value: unknown): number {
  return Array.isArray(value) ? value.length : 0
}
