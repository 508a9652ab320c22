import type { PasswordKeys } from '../kernel/crypto/password.js'
import type { SeededStates } from './seeded-states.js'
import type { WorldMember, WorldRegistry } from './worlds.js'

/**
 * How a world of a simulator family is made: the registry it belongs to, its
 * id, and what the family shares. `Member` is the simulator class of its worlds.
 *
 * @example
 * new SimulatorInstance(options, { registry, id: 'w1', seeded, passwordKeys })
 */
export interface Family<Member extends WorldMember> {
  registry: WorldRegistry<Member>
  id: string
  /** Loads kept for the whole family, so a world like one seeded before imports it. */
  seeded: SeededStates
  /** Derived password keys, shared so a world does not derive again what a sibling with its seed did. */
  passwordKeys: PasswordKeys
}
