import type { RecordingControl } from '../recording/recording-routes.js'
import { WorldHistory } from '../history/world-history.js'
import { newPasswordKeys, type PasswordKeys } from '../../kernel/crypto/password.js'
import { errorResponse } from '../../kernel/errors/error-response.js'
import type { Reply } from '../../kernel/http/reply.js'
import { PinnedSource } from '../../kernel/time/pinned-source.js'
import type { SealedPassword } from '../../kernel/crypto/sealed-password.js'
import type { Command } from './command.js'
import { CommandLog } from './command-log.js'
import type { JournalShare } from '../journal/journal-entry.js'
import { SeededStates } from '../state/seeded-states.js'
import { DEFAULT_WORLD_ID, type WorldMember, unknownWorld } from '../worlds/worlds.js'
import type { RegistryState, WorldRegistry } from '../worlds/world-registry.js'
import type { OwnWrite, WorldWrites } from './world-writes.js'
import type { StateLifecycle, WorldSnapshot } from '../state/state-lifecycle.js'
import type { ScenarioInput } from '../state/scenario-schema.js'

/** What an expiry command answers: nobody waits for it. */
const NO_CONTENT: Reply = { status: 204, headers: {}, body: null }

/** A world that commands are applied to. */
export interface CommandTarget extends WorldMember {
  readonly writes: WorldWrites
  readonly lifecycle: StateLifecycle
}

/**
 * Every world of a family at one position of its log, as JSON: a replica
 * joining replicas (or falling behind a trimmed log) restores it, then applies
 * the commands after it.
 */
export interface FamilySnapshot {
  format: 1
  /** The default world first, then the isolated ones. */
  worlds: Array<{ id: string; world: WorldSnapshot }>
  registry: RegistryState
}

/**
 * What the worlds of one simulator share: kept loads, derived password keys,
 * the source clock every world's clock reads (pinned while a command is
 * applied) and the one order of commands, whose commands name their world.
 *
 * @example
 * const shared = new FamilyShared(() => registry)
 */
export class FamilyShared<Member extends CommandTarget> {
  /** Loads kept for the whole family, so a world like one seeded before imports it. */
  readonly seeded = new SeededStates()
  /** Derived password keys, shared so a world does not derive again what a sibling with its seed did. */
  readonly passwordKeys: PasswordKeys = newPasswordKeys()
  readonly time = new PinnedSource()
  /** Sealed passwords by token while their command is applied: what the worlds' password hashers read (`SealedPassword`). */
  readonly sealed = new Map<string, SealedPassword>()
  readonly log: CommandLog<OwnWrite>
  /** Where every world's journal also keeps its entries, and reads every replica's, while replicas share the worlds (`serve --store`). */
  readonly journals: JournalShare = {}
  /** The server's recording of real traffic (`serve --record`), which the control API saves. */
  recording: RecordingControl | undefined

  /** `registry`: the family's worlds (made after this). */
  readonly #registry: () => WorldRegistry<Member>

  constructor(registry: () => WorldRegistry<Member>) {
    this.#registry = registry
    this.log = new CommandLog<OwnWrite>((command, own) => this.#apply(registry(), command, own))
    const member = (world: string | null) => registry().get(world ?? DEFAULT_WORLD_ID)
    this.log.keepHistory(new WorldHistory({ member, save: (world) => member(world)?.lifecycle.save() }, () => this.time.now()))
  }

  /** Every world as it stands (take it in the log's turn, between two commands). */
  snapshot(): FamilySnapshot {
    const registry = this.#registry()
    const ids = [DEFAULT_WORLD_ID, ...registry.list().map((info) => info.id)]
    return { format: 1, worlds: ids.map((id) => ({ id, world: registry.get(id)!.lifecycle.save() })), registry: registry.save() }
  }

  /** Puts every world back as `snapshot` has it, making and removing isolated worlds (in the log's turn). */
  restore(snapshot: FamilySnapshot): Promise<void> {
    return this.log.remotely(() => this.#restore(snapshot))
  }

  async #restore(snapshot: FamilySnapshot): Promise<void> {
    // Every world begins its history again from the snapshot.
    this.log.history?.clear()
    const registry = this.#registry()
    const wanted = new Set(snapshot.worlds.map(({ id }) => id))
    for (const { id } of registry.list()) if (!wanted.has(id)) registry.delete(id)
    for (const { id, world } of snapshot.worlds) {
      const member = registry.get(id) ?? (await registry.create({ id, scenario: world.chosen?.scenario as ScenarioInput | undefined, seed: world.state.seed }))
      await member.lifecycle.restore(world)
    }
    registry.load(snapshot.registry)
  }

  /** Replicas share the worlds (`serve --store`): idle expiry is decided by commands from now on (`expiryCommands`). */
  shareExpiry(): void {
    this.#registry().shareExpiry()
  }

  /** The expiry commands this replica owes the others now: worlds its requests used, and worlds idle long enough to go. */
  expiryCommands(): Command[] {
    const { touch, expire } = this.#registry().expiryCommands()
    const at = this.time.now()
    const command = (world: string, kind: 'touch' | 'expire'): Command => ({ world, method: '', url: '', at, kind })
    return [...touch.map((world) => command(world, 'touch')), ...expire.map((world) => command(world, 'expire'))]
  }

  /** Applies a command to its world, with the source clock at the instant it was accepted. */
  #apply(registry: WorldRegistry<Member>, command: Command, own: OwnWrite | undefined): Promise<Reply> {
    const target = registry.get(command.world ?? DEFAULT_WORLD_ID)
    if (target === undefined) return Promise.resolve(errorResponse(unknownWorld(command.world!, registry.idleMs)))
    // A write accepted here, in memory, is applied as it comes (several at once); a kept or replayed command at its instant.
    const apply = async (): Promise<Reply> => {
      if (command.world !== null) {
        if (command.kind === 'expire') registry.expire(command.world)
        // A write uses its world: on every replica at the same point, so they agree on when it is idle.
        else registry.touch(command.world)
      }
      if (command.kind === 'fault') return target.writes.decideFault(command)
      return command.kind === undefined ? target.writes.apply(command, own) : NO_CONTENT
    }
    return this.log.keeps || own === undefined ? this.time.during(command.at, apply) : apply()
  }
}

/**
 * How a world of a simulator family is made: the registry it belongs to, its
 * id, and what the family shares. `Member` is the simulator class of its worlds.
 *
 * @example
 * new SimulatorInstance(options, { registry, id: 'w1', shared })
 */
export interface Family<Member extends CommandTarget> {
  registry: WorldRegistry<Member>
  id: string
  shared: FamilyShared<Member>
}
